package org.llmplatform.inference.upstream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.llmplatform.inference.admission.AdmittedCall;
import org.llmplatform.inference.catalog.ModelAliases;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.http.StreamedBody;
import org.llmplatform.inference.limits.ConcurrencyLimiter;
import org.llmplatform.inference.limits.ProjectPolicy;
import org.llmplatform.inference.usage.UsagePublisher;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.ids.Uuids;

/**
 * Requests of upstream-served models (chat, completions, embeddings): the same concurrency limit and usage records as the
 * engine's, and the gateway's overhead (end-to-end time minus the time spent waiting on the upstream).
 */
@Singleton
public class UpstreamCompletionService {

    private final UpstreamRouter router;
    private final ConcurrencyLimiter limiter;
    private final UsagePublisher usage;
    private final OverheadMeter overhead;
    private final ModelAliases aliases;
    private final UpstreamCatalog catalog;

    public UpstreamCompletionService(UpstreamRouter router, ConcurrencyLimiter limiter, UsagePublisher usage,
            OverheadMeter overhead, ModelAliases aliases, UpstreamCatalog catalog) {
        this.catalog = catalog;
        this.aliases = aliases;
        this.router = router;
        this.limiter = limiter;
        this.usage = usage;
        this.overhead = overhead;
    }

    /** Whether {@code model} (a public name, maybe an alias) is served by an upstream server. */
    public boolean serves(String model) {
        return model != null && router.serves(aliases.backend(model));
    }

    /** Whether {@code model} is served by an upstream that speaks the Responses API itself ({@code wire=responses}). */
    public boolean speaksResponses(String model) {
        return model != null && catalog.find(aliases.backend(model))
                .map(upstream -> upstream.wire() == GatewayConfig.Wire.responses).orElse(false);
    }

    /**
     * Forwards {@code body}, a request of {@code api} for the public name {@code model}, of {@code call} (billed to its
     * project, its tokens charged to its limits); {@code arrivedNanos}: {@link System#nanoTime()} when the request
     * reached the gateway.
     */
    public Uni<UpstreamReply> forward(ObjectNode body, String model, UpstreamApi api, AdmittedCall<?> call,
            long arrivedNanos) {
        String projectId = call.project().toString();
        String user = call.user();
        String requestIdHeader = call.requestIdHeader();
        String weaveCallId = call.weaveCallId();
        // written before the router renames its model for the upstream: the record carries the client's request
        String request = body.toString();
        ConcurrencyLimiter.Permit permit = limiter.acquire(projectId);
        String base = requestIdHeader != null && !requestIdHeader.isBlank() ? requestIdHeader
                : body.path("request_id").isTextual() ? body.get("request_id").asText() : Uuids.v7().toString();
        boolean stream = body.path("stream").asBoolean(false);
        Tally tally = new Tally(api);
        Instant started = Instant.now();
        return router.forward(body, model, aliases.backend(model), api, base, tally)
                .map(reply -> {
                    long beforeFirstByte = System.nanoTime() - arrivedNanos - tally.waited.get();
                    StreamedBody.FinishListener finish = (failure, cancelled) -> {
                        permit.release();
                        call.limits().charge(tally.prompt.get() + tally.completion.get());
                        overhead.record(model, stream, beforeFirstByte + tally.relayed.get());
                        boolean failed = failure != null || reply.status() != 200 || tally.failed.get();
                        String status = failed ? UsageRecord.ERROR : cancelled ? UsageRecord.CANCELLED : UsageRecord.SUCCESS;
                        Instant ended = Instant.now();
                        usage.publish(new UsageRecord(UsageRecord.SCHEMA_VERSION, api.idPrefix() + base,
                                projectId, user, model, tally.prompt.get(), tally.completion.get(),
                                Duration.between(started, ended).toMillis(), status, started, ended, weaveCallId,
                                tally.id, UsageRecord.withinLimitAsWritten(request), answer(reply, tally, model),
                                failed ? errorOf(failure, reply) : null));
                    };
                    if (reply.isStreamed()) {
                        return reply.withStream(reply.stream().whenFinished(finish)).withOverhead(beforeFirstByte);
                    }
                    finish.finished(null, false);
                    return reply.withOverhead(beforeFirstByte);
                })
                .onFailure().invoke(permit::release);
    }

    /** A non-streamed answer as the client got it: its text, one JSON value the router read and renamed. */
    private static JsonNode answer(UpstreamReply reply, Tally tally, String model) {
        return tally.answered != null && !reply.isStreamed() ? UsageRecord.withinLimitAsWritten(reply.body())
                : UsageRecord.withinLimit(tally.answer(model));
    }

    private static String errorOf(Throwable failure, UpstreamReply reply) {
        if (failure != null) {
            return String.valueOf(failure.getMessage());
        }
        return reply.status() != 200 ? "the upstream answered " + reply.status() : "the upstream's answer reported an error";
    }

    /**
     * What the upstream answered: a completion or a Response (a streamed Response's from its last event); of a chat
     * stream, whose chunks are relayed without being read, its id and usage.
     */
    private static final class Tally implements UpstreamRouter.UsageSink {
        private final UpstreamApi api;
        private volatile String id;
        private volatile JsonNode answered;
        private final AtomicLong prompt = new AtomicLong();
        private final AtomicLong completion = new AtomicLong();
        private final AtomicBoolean failed = new AtomicBoolean();
        private final AtomicLong waited = new AtomicLong();
        private final AtomicLong relayed = new AtomicLong();

        Tally(UpstreamApi api) {
            this.api = api;
        }

        @Override
        public void count(JsonNode completionOrUsageChunk) {
            JsonNode usage = completionOrUsageChunk.path("usage");
            // a chat completion's, or a Response's
            prompt.set(usage.path("prompt_tokens").asLong(usage.path("input_tokens").asLong(0)));
            completion.set(usage.path("completion_tokens").asLong(usage.path("output_tokens").asLong(0)));
            id = completionOrUsageChunk.path("id").isTextual() ? completionOrUsageChunk.get("id").textValue() : null;
            boolean answer = !completionOrUsageChunk.path("choices").isEmpty()
                    || !completionOrUsageChunk.path("data").isEmpty() || completionOrUsageChunk.path("output").isArray();
            answered = answer ? completionOrUsageChunk : null;
        }

        JsonNode answer(String model) {
            if (answered != null) {
                return answered;
            }
            if (id == null) {
                return null;
            }
            ObjectNode streamed = JsonNodeFactory.instance.objectNode().put("id", id).put("object", api.object())
                    .put("model", model);
            streamed.putObject("usage").put("prompt_tokens", prompt.get()).put("completion_tokens", completion.get())
                    .put("total_tokens", prompt.get() + completion.get());
            return streamed;
        }

        @Override
        public void failed() {
            failed.set(true);
        }

        @Override
        public void waited(long nanos) {
            waited.addAndGet(nanos);
        }

        @Override
        public void relayed(long nanos) {
            relayed.addAndGet(nanos);
        }
    }
}
