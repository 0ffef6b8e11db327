package org.llmplatform.inference.messaging;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.inference.service.UsageTotalsService;
import org.llmplatform.model.events.UsageRecord;

/**
 * Feeds {@code inference.usage} into the usage totals. The record is acknowledged once its totals are
 * committed; a record that cannot be counted is nacked and lands in {@code inference.usage.dlq}.
 */
@ApplicationScoped
public class UsageRecordConsumer {

    private final UsageTotalsService usage;

    public UsageRecordConsumer(UsageTotalsService usage) {
        this.usage = usage;
    }

    @Incoming("usage-totals")
    public Uni<Void> consume(UsageRecord record) {
        return usage.count(record).replaceWithVoid();
    }
}
