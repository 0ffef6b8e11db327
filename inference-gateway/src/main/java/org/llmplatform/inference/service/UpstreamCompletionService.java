package org.llmplatform.inference.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.llmplatform.inference.messaging.UsagePublisher;
import org.llmplatform.inference.service.upstream.UpstreamReply;
import org.llmplatform.inference.service.upstream.UpstreamRouter;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.auth.ProjectId;

/** Chat completions of upstream-served models: the same concurrency limit and usage records as the engine's. */
@ApplicationScoped
public class UpstreamCompletionService {

    private final UpstreamRouter router;
    private final ConcurrencyLimiter limiter;
    private final UsagePublisher usage;

    public UpstreamCompletionService(UpstreamRouter router, ConcurrencyLimiter limiter, UsagePublisher usage) {
        this.router = router;
        this.limiter = limiter;
        this.usage = usage;
    }

    public boolean serves(String model) {
        return model != null && router.serves(model);
    }

    public Uni<UpstreamReply> forward(ObjectNode body, String model, ProjectId project, String user, String requestIdHeader) {
        ConcurrencyLimiter.Permit permit = limiter.acquire(project.toString());
        String base = requestIdHeader != null && !requestIdHeader.isBlank() ? requestIdHeader
                : body.path("request_id").isTextual() ? body.get("request_id").asText() : UUID.randomUUID().toString();
        Tally tally = new Tally();
        Instant started = Instant.now();
        return router.forward(body, model, base, tally)
                .map(reply -> new UpstreamReply(reply.status(), reply.contentType(), reply.body()
                        .onTermination().invoke((failure, cancelled) -> {
                            permit.release();
                            String status = failure != null || reply.status() != 200 || tally.failed.get() ? "error"
                                    : cancelled ? "cancelled" : "success";
                            Instant ended = Instant.now();
                            usage.publish(new UsageRecord(UsageRecord.SCHEMA_VERSION, "chatcmpl-" + base,
                                    project.toString(), user, model, tally.prompt.get(), tally.completion.get(),
                                    Duration.between(started, ended).toMillis(), status, started, ended));
                        })))
                .onFailure().invoke(permit::release);
    }

    private static final class Tally implements UpstreamRouter.UsageSink {
        private final AtomicLong prompt = new AtomicLong();
        private final AtomicLong completion = new AtomicLong();
        private final AtomicBoolean failed = new AtomicBoolean();

        @Override
        public void count(JsonNode usage) {
            prompt.set(usage.path("prompt_tokens").asLong(0));
            completion.set(usage.path("completion_tokens").asLong(0));
        }

        @Override
        public void failed() {
            failed.set(true);
        }
    }
}
