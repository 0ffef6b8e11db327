package org.llmplatform.localstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.llmplatform.model.auth.ApiKeys;

/**
 * The keys of a local install, kept in the data folder so scripts can read them: a bootstrap admin
 * key made on first start, and a development key of the user {@code dev}, made through the admin API.
 */
final class DevCredentials {

    static final String DEV_USER = "dev";
    private static final Pattern KEY = Pattern.compile("\"key\"\\s*:\\s*\"([0-9a-f]{40})\"");

    static String bootstrapAdminKey(Path dataDirectory) throws IOException {
        Path file = dataDirectory.resolve("bootstrap-admin-key");
        if (!Files.exists(file)) {
            writePrivate(file, ApiKeys.generate());
        }
        return Files.readString(file).strip();
    }

    /** The key that encrypts the automation-service's team secrets: 32 random bytes, Base64. */
    static String automationEncryptionKey(Path dataDirectory) throws IOException {
        Path file = dataDirectory.resolve("automation-encryption-key");
        if (!Files.exists(file)) {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            writePrivate(file, Base64.getEncoder().encodeToString(key));
        }
        return Files.readString(file).strip();
    }

    /** The dev user's key from an earlier start if it still works, else a new one. */
    static String devApiKey(Path dataDirectory, URI tracing, String adminKey, HttpClient http) throws IOException, InterruptedException {
        Path file = dataDirectory.resolve("dev-api-key");
        if (Files.exists(file)) {
            String key = Files.readString(file).strip();
            if (send(http, get(tracing, "/admin/users/" + DEV_USER + "/api-keys", key)).statusCode() == 200) {
                return key;
            }
        }
        HttpResponse<String> user = send(http, post(tracing, "/admin/users", adminKey, "{\"name\":\"" + DEV_USER + "\",\"admin\":true}"));
        if (user.statusCode() != 201 && user.statusCode() != 409) {
            throw new IllegalStateException("could not create the dev user: " + user.statusCode() + " " + user.body());
        }
        HttpResponse<String> created = send(http, post(tracing, "/admin/users/" + DEV_USER + "/api-keys", adminKey, "{\"name\":\"local-stack\"}"));
        Matcher key = KEY.matcher(created.body());
        if (created.statusCode() != 201 || !key.find()) {
            throw new IllegalStateException("could not create the dev API key: " + created.statusCode() + " " + created.body());
        }
        writePrivate(file, key.group(1));
        return key.group(1);
    }

    private static HttpRequest get(URI base, String path, String key) {
        return HttpRequest.newBuilder(base.resolve(path)).header("Authorization", "Bearer " + key).GET().build();
    }

    private static HttpRequest post(URI base, String path, String key, String json) {
        return HttpRequest.newBuilder(base.resolve(path))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
    }

    private static HttpResponse<String> send(HttpClient http, HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static void writePrivate(Path file, String content) throws IOException {
        Files.writeString(file, content + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    private DevCredentials() {
    }
}
