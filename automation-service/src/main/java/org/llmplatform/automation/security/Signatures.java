package org.llmplatform.automation.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The two signatures a delivery carries. */
public final class Signatures {

    private static final String STANDARD_WEBHOOKS_PREFIX = "whsec_";

    /** {@code X-Svc-Signature}: Base64(HMAC-SHA256(UTF-8 bytes of the secret, exact body bytes)). */
    public static String svcSignature(String secret, byte[] body) {
        return Base64.getEncoder().encodeToString(hmac(secret.getBytes(StandardCharsets.UTF_8), body));
    }

    /**
     * {@code webhook-signature} of Standard Webhooks: {@code v1,} + Base64 HMAC over {@code id.timestamp.body}.
     * A {@code whsec_} secret is Base64 key material, as the Standard Webhooks libraries read it; any other
     * secret is used as its UTF-8 bytes.
     */
    public static String standardWebhooksSignature(String secret, String webhookId, long timestamp, byte[] body) {
        byte[] prefix = (webhookId + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
        byte[] content = new byte[prefix.length + body.length];
        System.arraycopy(prefix, 0, content, 0, prefix.length);
        System.arraycopy(body, 0, content, prefix.length, body.length);
        return "v1," + Base64.getEncoder().encodeToString(hmac(standardWebhooksKey(secret), content));
    }

    static byte[] standardWebhooksKey(String secret) {
        if (secret.startsWith(STANDARD_WEBHOOKS_PREFIX)) {
            try {
                return Base64.getDecoder().decode(secret.substring(STANDARD_WEBHOOKS_PREFIX.length()));
            } catch (IllegalArgumentException notBase64) {
                return secret.getBytes(StandardCharsets.UTF_8);
            }
        }
        return secret.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is unavailable", e);
        }
    }

    private Signatures() {
    }
}
