package org.llmplatform.automation.delivery;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.llmplatform.automation.security.EncryptedSecret;
import org.llmplatform.automation.security.SecretCipher;
import org.llmplatform.automation.store.SecretStore;
import org.llmplatform.automation.store.WebhookTarget;
import org.llmplatform.automation.template.PayloadTemplate;

/** Decrypts a webhook's access token and signing secret for one send; the values live only in memory. */
@ApplicationScoped
public class WebhookSecrets {

    private final SecretStore store;
    private final SecretCipher cipher;

    public WebhookSecrets(SecretStore store, SecretCipher cipher) {
        this.store = store;
        this.cipher = cipher;
    }

    /** The decrypted values; fails with {@link MissingSecret} when a referenced secret was deleted. */
    public Uni<Resolved> resolve(String entity, String accessTokenSecret, String signingSecret) {
        List<String> names = new ArrayList<>();
        if (accessTokenSecret != null) {
            names.add(accessTokenSecret);
        }
        if (signingSecret != null) {
            names.add(signingSecret);
        }
        if (names.isEmpty()) {
            return Uni.createFrom().item(new Resolved(null, null, null));
        }
        return store.find(entity, names).map(found -> decrypt(entity, accessTokenSecret, signingSecret, found));
    }

    /**
     * Decrypts the webhook's secrets from their stored values, read with the delivery; throws
     * {@link MissingSecret} when a referenced secret was deleted.
     */
    public Resolved decrypt(WebhookTarget webhook) {
        return decrypt(webhook.entity(), webhook.accessTokenSecret(), webhook.signingSecret(), webhook.storedSecrets());
    }

    private Resolved decrypt(String entity, String accessTokenSecret, String signingSecret, Map<String, EncryptedSecret> found) {
        for (String name : Arrays.asList(accessTokenSecret, signingSecret)) {
            if (name != null && !found.containsKey(name)) {
                throw new MissingSecret("The webhook's secret '" + name + "' no longer exists");
            }
        }
        return new Resolved(value(entity, accessTokenSecret, found), signingSecret, value(entity, signingSecret, found));
    }

    private String value(String entity, String name, Map<String, EncryptedSecret> found) {
        return name == null ? null : cipher.decrypt(entity, name, found.get(name));
    }

    /** The webhook's secret values, and the template variables they fill. */
    public record Resolved(String accessToken, String signingSecretName, String signingSecret) {

        public Map<String, String> variables() {
            Map<String, String> variables = new HashMap<>();
            if (accessToken != null) {
                variables.put(PayloadTemplate.ACCESS_TOKEN, accessToken);
            }
            if (signingSecret != null) {
                variables.put(signingSecretName, signingSecret);
            }
            return variables;
        }

        public List<String> values() {
            List<String> values = new ArrayList<>();
            if (accessToken != null) {
                values.add(accessToken);
            }
            if (signingSecret != null) {
                values.add(signingSecret);
            }
            return values;
        }

        @Override
        public String toString() {
            return "Resolved[secrets hidden]";
        }
    }

    /** A webhook refers to a secret that was deleted since. */
    public static class MissingSecret extends RuntimeException {
        public MissingSecret(String message) {
            super(message, null, false, false);
        }
    }
}
