package org.llmplatform.inference.messaging;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.inference.service.UsageTotalsService;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.messaging.PollConsumer;

/**
 * Feeds {@code inference.usage} into the usage totals a poll at a time: one transaction per poll keeps up
 * with thousands of completions a second, where one per record fell behind and loaded the database. A
 * record that cannot be counted lands alone in {@code inference.usage.dlq}; the poll is acknowledged once
 * the others' totals are committed.
 */
@ApplicationScoped
public class UsageRecordConsumer {

    private final UsageTotalsService usage;

    public UsageRecordConsumer(UsageTotalsService usage) {
        this.usage = usage;
    }

    @Incoming("usage-totals")
    public Uni<Void> consume(KafkaRecordBatch<String, UsageRecord> poll) {
        return PollConsumer.consume(poll, usage::count);
    }
}
