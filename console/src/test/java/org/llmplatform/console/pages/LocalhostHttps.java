package org.llmplatform.console.pages;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;
import org.llmplatform.engines.LocalhostKeyStore;

/** The console also over HTTPS, with the self-signed localhost certificate {@code ./platform} gives it. */
public class LocalhostHttps implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        try {
            var keyStore = LocalhostKeyStore.createIfMissing(Files.createTempDirectory("console-tls").resolve("localhost.p12"));
            return Map.of("quarkus.tls.key-store.p12.path", keyStore.toString(),
                    "quarkus.tls.key-store.p12.password", LocalhostKeyStore.PASSWORD,
                    "quarkus.http.test-ssl-port", "0");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void stop() {
    }
}
