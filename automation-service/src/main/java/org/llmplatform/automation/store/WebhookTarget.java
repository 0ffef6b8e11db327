package org.llmplatform.automation.store;

import io.vertx.mutiny.sqlclient.Row;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.llmplatform.automation.security.EncryptedSecret;

/**
 * Where and how a delivery is sent: the webhook's URL and state, the names of its secrets and their stored
 * (encrypted) values, read in the same query as the delivery so that sending needs no further lookup. A
 * referenced secret that no longer exists is absent from {@code storedSecrets}.
 */
public record WebhookTarget(UUID id, String entity, String url, String accessTokenSecret, String signingSecret, boolean enabled,
        Map<String, EncryptedSecret> storedSecrets) {

    /** The columns {@link #from} reads, for a query over {@code automation.webhooks w} joined with {@link #SECRET_JOINS}. */
    static final String COLUMNS = """
            w.entity AS webhook_entity, w.url AS webhook_url, w.access_token_secret, w.signing_secret, w.enabled AS webhook_enabled,
            token.kek_id AS token_kek_id, token.wrapped_dek AS token_wrapped_dek, token.nonce AS token_nonce,
            token.ciphertext AS token_ciphertext, signing.kek_id AS signing_kek_id, signing.wrapped_dek AS signing_wrapped_dek,
            signing.nonce AS signing_nonce, signing.ciphertext AS signing_ciphertext""";

    static final String SECRET_JOINS = """
            LEFT JOIN automation.secrets token ON token.entity = w.entity AND token.name = w.access_token_secret
            LEFT JOIN automation.secrets signing ON signing.entity = w.entity AND signing.name = w.signing_secret""";

    /** Reads a row holding {@link #COLUMNS} and the webhook's id as {@code webhook_id}. */
    static WebhookTarget from(Row row) {
        Map<String, EncryptedSecret> stored = new HashMap<>();
        String accessTokenSecret = row.getString("access_token_secret");
        String signingSecret = row.getString("signing_secret");
        if (accessTokenSecret != null && row.getString("token_kek_id") != null) {
            stored.put(accessTokenSecret, secret(row, "token_"));
        }
        if (signingSecret != null && row.getString("signing_kek_id") != null) {
            stored.put(signingSecret, secret(row, "signing_"));
        }
        return new WebhookTarget(row.getUUID("webhook_id"), row.getString("webhook_entity"), row.getString("webhook_url"),
                accessTokenSecret, signingSecret, row.getBoolean("webhook_enabled"), stored);
    }

    private static EncryptedSecret secret(Row row, String prefix) {
        return new EncryptedSecret(row.getString(prefix + "kek_id"), row.getBuffer(prefix + "wrapped_dek").getBytes(),
                row.getBuffer(prefix + "nonce").getBytes(), row.getBuffer(prefix + "ciphertext").getBytes());
    }

    @Override
    public String toString() {
        return "WebhookTarget[" + id + " " + url + ", secrets hidden]";
    }
}
