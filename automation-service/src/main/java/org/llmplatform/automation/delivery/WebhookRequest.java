package org.llmplatform.automation.delivery;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.llmplatform.automation.security.Signatures;

/**
 * The headers of a webhook POST (docs/automation-service.md#the-webhook-request): JSON content type, the Bearer access token when the webhook
 * has one, and with a signing secret both {@code X-Svc-Signature} and the Standard Webhooks signature.
 * {@code webhook-id} is the delivery's id, the same on every attempt; the timestamp is this attempt's.
 */
public final class WebhookRequest {

    public static final String USER_AGENT = "llm-platform-automation-service/1";

    public static Map<String, String> headers(String webhookId, byte[] body, String accessToken, String signingSecret, Instant now) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("User-Agent", USER_AGENT);
        if (accessToken != null) {
            requireSingleLine(accessToken, "access token");
            headers.put("Authorization", "Bearer " + accessToken);
        }
        long timestamp = now.getEpochSecond();
        headers.put("webhook-id", webhookId);
        headers.put("webhook-timestamp", Long.toString(timestamp));
        if (signingSecret != null) {
            headers.put("X-Svc-Signature", Signatures.svcSignature(signingSecret, body));
            headers.put("webhook-signature", Signatures.standardWebhooksSignature(signingSecret, webhookId, timestamp, body));
        }
        return headers;
    }

    /** A secret with a line break would let its value inject headers. */
    private static void requireSingleLine(String value, String what) {
        if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("The webhook's " + what + " contains a line break and cannot be sent as a header");
        }
    }

    private WebhookRequest() {
    }
}
