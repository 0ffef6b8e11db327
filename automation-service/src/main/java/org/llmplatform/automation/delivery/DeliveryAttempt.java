package org.llmplatform.automation.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.llmplatform.automation.config.AutomationConfig;
import org.llmplatform.automation.store.AttemptOutcome;
import org.llmplatform.automation.store.DeliveryJob;
import org.llmplatform.automation.store.DeliveryStore;
import org.llmplatform.automation.store.StoredJson;
import org.llmplatform.automation.store.WebhookStore;
import org.llmplatform.automation.template.PayloadTemplate;
import org.llmplatform.automation.template.TemplateValues;

/**
 * One attempt of a claimed delivery: resolve the webhook's secrets, render the payload, sign and POST it,
 * then record the attempt and what comes next, and keep the webhook's failure streak (docs/automation-service.md#delivery-defaults).
 */
@ApplicationScoped
public class DeliveryAttempt {

    static final int LARGEST_BODY = 256 * 1024;

    private final WebhookSecrets secrets;
    private final WebhookSender sender;
    private final RetryPolicy retries;
    private final AttemptRecorder recorder;
    private final WebhookStore webhooks;
    private final long disableAfterSeconds;

    public DeliveryAttempt(WebhookSecrets secrets, WebhookSender sender, RetryPolicy retries, AttemptRecorder recorder,
            WebhookStore webhooks, AutomationConfig config) {
        this.secrets = secrets;
        this.sender = sender;
        this.retries = retries;
        this.recorder = recorder;
        this.webhooks = webhooks;
        this.disableAfterSeconds = config.delivery().disableAfter().toSeconds();
    }

    /** The webhook's secrets, decrypted from the values read with the job; once for the jobs of a claim that share them. */
    public Uni<WebhookSecrets.Resolved> secretsOf(DeliveryJob job) {
        return Uni.createFrom().item(() -> secrets.decrypt(job.webhook()));
    }

    /** Runs the attempt with the webhook's secrets ({@link #secretsOf}); completes once its outcome is recorded. */
    public Uni<Void> run(DeliveryJob job, Uni<WebhookSecrets.Resolved> webhookSecrets) {
        Instant started = Instant.now();
        if (!job.webhook().enabled()) {
            return record(job, new AttemptOutcome(job.attemptNumber(), job.manual(), started, 0, null, null,
                    "Not sent: the webhook is disabled", false, "DISCARDED", null));
        }
        return webhookSecrets
                .chain(resolved -> send(job, resolved, started))
                .onFailure(WebhookSecrets.MissingSecret.class).recoverWithItem(missing ->
                        new SendResult(null, Map.of(), null, missing.getMessage(), false, 0))
                // Anything else (a key no longer configured, a bad stored template) is recorded as a failed
                // attempt, so the row follows the retry schedule instead of cycling through lease expiry.
                .onFailure().recoverWithItem(unexpected ->
                        new SendResult(null, Map.of(), null, "Not sent: " + unexpected.getMessage(), false, 0))
                .chain(result -> conclude(job, result, started));
    }

    private Uni<SendResult> send(DeliveryJob job, WebhookSecrets.Resolved resolved, Instant started) {
        JsonNode payload = PayloadTemplate.render(StoredJson.parse(job.payloadTemplate()),
                TemplateValues.of(job.event(), job.matchedValues(), resolved.variables()), "");
        byte[] body = PayloadTemplate.bytes(payload);
        if (body.length > LARGEST_BODY) {
            return Uni.createFrom().item(new SendResult(null, Map.of(), null,
                    "The rendered payload is " + body.length + " bytes, over the 256 KiB limit", false, 0));
        }
        Map<String, String> headers;
        try {
            headers = WebhookRequest.headers(job.id().toString(), body, resolved.accessToken(), resolved.signingSecret(), started);
        } catch (IllegalArgumentException badHeader) {
            return Uni.createFrom().item(new SendResult(null, Map.of(), null, badHeader.getMessage(), false, 0));
        }
        List<String> values = resolved.values();
        return sender.post(job.webhook().url(), body, headers).map(result -> result.scrubbed(values));
    }

    private Uni<Void> conclude(DeliveryJob job, SendResult result, Instant started) {
        if (result.succeeded()) {
            return record(job, outcome(job, result, started, "SUCCEEDED", null));
        }
        if (result.statusCode() != null && result.statusCode() == 410) {
            return record(job, outcome(job, result, started, "FAILED", null))
                    .chain(() -> disable(job, "The endpoint answered 410 Gone"));
        }
        Instant next = job.manual() ? null : retries.next(job.attemptNumber(), result, Instant.now());
        return record(job, outcome(job, result, started, next == null ? "FAILED" : "RETRY", next))
                .chain(() -> webhooks.recordFailure(job.webhook().id(), disableAfterSeconds))
                .chain(overdue -> overdue
                        ? disable(job, "Every attempt failed for at least " + disableAfterSeconds + " s")
                        : Uni.createFrom().voidItem());
    }

    private Uni<Void> record(DeliveryJob job, AttemptOutcome outcome) {
        return recorder.record(new DeliveryStore.Finished(job.id(), job.webhook().id(), outcome));
    }

    private Uni<Void> disable(DeliveryJob job, String reason) {
        Log.warnf("Disabling webhook %s: %s", job.webhook().id(), reason);
        return webhooks.disable(job.webhook().id(), reason);
    }

    private static AttemptOutcome outcome(DeliveryJob job, SendResult result, Instant started, String status, Instant next) {
        String error = result.error() != null ? result.error()
                : result.succeeded() ? null : "The endpoint answered " + result.statusCode();
        return new AttemptOutcome(job.attemptNumber(), job.manual(), started, result.durationMs(), result.statusCode(),
                result.body(), error, result.succeeded(), status, next);
    }
}
