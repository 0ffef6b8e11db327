package org.llmplatform.inference.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.inference.service.UsageTotalsService;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.messaging.EventReader;

/**
 * Feeds {@code inference.usage} into the usage totals. The record is acknowledged once its totals are
 * committed; a record that cannot be counted is nacked and lands in {@code inference.usage.dlq}.
 */
@ApplicationScoped
public class UsageRecordConsumer {

    private final EventReader<UsageRecord> reader;
    private final UsageTotalsService usage;

    public UsageRecordConsumer(ObjectMapper json, UsageTotalsService usage) {
        // What a record must hold to be counted, UsageTotalsService checks.
        this.reader = new EventReader<>(json, Topics.INFERENCE_USAGE, UsageRecord.class, record -> Optional.empty());
        this.usage = usage;
    }

    @Incoming("usage-totals")
    public Uni<Void> consume(String record) {
        return reader.readOrDeadLetter(record).chain(usage::count).replaceWithVoid();
    }
}
