package org.llmplatform.model.auth;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import org.apache.commons.codec.digest.DigestUtils;

/**
 * API keys: 40 lowercase hex characters (the length W&B clients expect), stored only as their
 * SHA-256. A slow password hash buys nothing for 160 random bits and would cost every request.
 */
public final class ApiKeys {

    public static final int KEY_LENGTH = 40;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    public static String generate() {
        byte[] bytes = new byte[KEY_LENGTH / 2];
        RANDOM.nextBytes(bytes);
        return HEX.formatHex(bytes);
    }

    public static String hash(String key) {
        return DigestUtils.sha256Hex(key);
    }

    /** The last characters, enough for a person to tell keys apart in a listing. */
    public static String hint(String key) {
        return "…" + key.substring(Math.max(0, key.length() - 4));
    }

    /**
     * The key in an {@code Authorization} header: {@code Bearer <key>}, or {@code Basic} with the key
     * as the password (any user name, W&B clients send {@code api}).
     */
    public static Optional<String> fromAuthorizationHeader(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String value = header.strip();
        int space = value.indexOf(' ');
        if (space < 0) {
            return Optional.empty();
        }
        String scheme = value.substring(0, space);
        String credentials = value.substring(space + 1).strip();
        if (scheme.equalsIgnoreCase("Bearer")) {
            return nonEmpty(credentials);
        }
        if (scheme.equalsIgnoreCase("Basic")) {
            String decoded;
            try {
                decoded = new String(Base64.getDecoder().decode(credentials), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException notBase64) {
                return Optional.empty();
            }
            int colon = decoded.indexOf(':');
            return colon < 0 ? Optional.empty() : nonEmpty(decoded.substring(colon + 1));
        }
        return Optional.empty();
    }

    private static Optional<String> nonEmpty(String key) {
        return key.isEmpty() ? Optional.empty() : Optional.of(key);
    }

    private ApiKeys() {
    }
}
