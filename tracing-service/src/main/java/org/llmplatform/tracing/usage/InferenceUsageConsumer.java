package org.llmplatform.tracing.usage;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.messaging.PollConsumer;

/**
 * Consumes {@code inference.usage} a poll at a time: its calls are written in one transaction (one per
 * record fell behind the gateway under load). The poll is acknowledged once they are written; a record
 * that cannot become a call is nacked alone, which sends it to {@code inference.usage.dlq}.
 */
@ApplicationScoped
public class InferenceUsageConsumer {

    private final UsageCalls usageCalls;

    public InferenceUsageConsumer(UsageCalls usageCalls) {
        this.usageCalls = usageCalls;
    }

    @Incoming("inference-usage")
    public Uni<Void> consume(KafkaRecordBatch<String, UsageRecord> poll) {
        return PollConsumer.consume(poll, usageCalls::recordAll);
    }
}
