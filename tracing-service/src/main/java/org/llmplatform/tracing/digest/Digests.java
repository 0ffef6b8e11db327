package org.llmplatform.tracing.digest;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.apache.commons.codec.digest.DigestUtils;

/** The content digests of docs/tracing-service.md#digests: objects, rows, files (43 characters) and tables (64 hex). */
public final class Digests {

    public static String bytesDigest(byte[] bytes) {
        return spelled(DigestUtils.sha256(bytes));
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
        MessageDigest sha = DigestUtils.getSha256Digest();
        for (String row : rowDigests) {
            sha.update(row.getBytes(StandardCharsets.US_ASCII));
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private Digests() {
    }
}
