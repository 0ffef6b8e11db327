package org.llmplatform.tracing.digest;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/** The content digests of docs/tracing-service.md#digests: objects, rows, files (43 characters) and tables (64 hex). */
public final class Digests {

    public static String bytesDigest(byte[] bytes) {
        return spelled(sha256().digest(bytes));
    }

    /** The bytes digest of content whose SHA-256 is already known as lowercase hex (as the blob store gives it). */
    public static String sha256HexDigest(String sha256Hex) {
        return spelled(HexFormat.of().parseHex(sha256Hex));
    }

    private static String spelled(byte[] sha256) {
        String encoded = Base64.getUrlEncoder().withoutPadding().encodeToString(sha256);
        return encoded.replace('-', 'X').replace('_', 'Y');
    }

    public static String strDigest(String text) {
        return bytesDigest(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The digest of a value and the canonical text it was computed from (what gets stored). */
    public record Canonical(String json, String digest) {
    }

    public static Canonical canonical(JsonNode value) {
        String json = PythonJson.dumps(value);
        return new Canonical(json, strDigest(json));
    }

    public static String objectDigest(JsonNode value) {
        return canonical(value).digest();
    }

    /** Hex SHA-256 over the row digests in table order, with nothing between them. */
    public static String tableDigest(List<String> rowDigests) {
        MessageDigest sha = sha256();
        for (String row : rowDigests) {
            sha.update(row.getBytes(StandardCharsets.US_ASCII));
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private Digests() {
    }
}
