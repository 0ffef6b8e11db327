package org.llmplatform.engines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for {@code localhost} in a PKCS12 key store, made once by the JDK's own keytool: what
 * lets the console answer {@code https://localhost:…}, the scheme the Weave TypeScript SDK always writes its call
 * links with. Browsers warn about it once; it protects nothing but a laptop's loopback traffic, hence the fixed
 * password.
 */
public final class LocalhostKeyStore {

    public static final String PASSWORD = "platform-dev";

    private LocalhostKeyStore() {
    }

    /** The key store at {@code file}, made first when there is none. */
    public static Path createIfMissing(Path file) {
        if (Files.isRegularFile(file)) {
            return file;
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                    "-genkeypair", "-alias", "localhost", "-keyalg", "EC", "-groupname", "secp256r1",
                    "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1,ip:::1", "-validity", "3650",
                    "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD, "-noprompt");
            Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
            keytool.getOutputStream().close();
            if (!keytool.waitFor(60, TimeUnit.SECONDS)) {
                keytool.destroyForcibly();
                throw new IllegalStateException("keytool did not make " + file + " within 60 s");
            }
            String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (keytool.exitValue() != 0 || !Files.isRegularFile(file)) {
                throw new IllegalStateException("keytool could not make " + file + ": " + output.strip());
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("could not make the localhost certificate " + file, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making " + file, e);
        }
    }
}
