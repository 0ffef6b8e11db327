package org.llmplatform.tracing.usage;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.messaging.EventReader;
import org.llmplatform.support.messaging.PollConsumer;

/**
 * Consumes {@code inference.usage} a poll at a time: its calls are written in one transaction (one per
 * record fell behind the gateway under load). The poll is acknowledged once they are written; a record
 * that cannot become a call is nacked alone, which sends it to {@code inference.usage.dlq} as it came. A record the
 * topic has held longer than the completions' links are kept ({@link UsageConfig#completionCallsKept()}) is skipped.
 */
@ApplicationScoped
public class InferenceUsageConsumer {

    private final EventReader<UsageRecord> reader;
    private final UsageCalls usageCalls;
    private final Duration linksKept;

    public InferenceUsageConsumer(ObjectMapper json, UsageCalls usageCalls, UsageConfig config) {
        // What a record must hold to become a call, UsageCalls checks.
        this.reader = new EventReader<>(json, Topics.INFERENCE_USAGE, UsageRecord.class, usage -> Optional.empty());
        this.usageCalls = usageCalls;
        this.linksKept = config.completionCallsKept();
    }

    @Incoming("inference-usage")
    public Uni<Void> consume(KafkaRecordBatch<String, String> poll) {
        // a record older than the completions' links may find its link forgotten, and would add a second call
        return PollConsumer.consume(poll, reader, Instant.now().minus(linksKept), usageCalls::recordAll);
    }
}
