package org.llmplatform.inference.usage;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.messaging.EventReader;
import org.llmplatform.support.messaging.PollConsumer;

/**
 * Feeds {@code inference.usage} into the usage totals a poll at a time: one transaction per poll keeps up
 * with thousands of completions a second, where one per record fell behind and loaded the database. A
 * record that cannot be counted lands alone in {@code inference.usage.dlq}; the poll is acknowledged once
 * the others' totals are committed.
 */
@Singleton
public class UsageRecordConsumer {

    private final EventReader<UsageRecord> reader;
    private final UsageTotalsService usage;

    public UsageRecordConsumer(ObjectMapper json, UsageTotalsService usage) {
        // What a record must hold to be counted, UsageTotalsService checks.
        this.reader = new EventReader<>(json.copy().addMixIn(UsageRecord.class, CountsOnly.class),
                Topics.INFERENCE_USAGE, UsageRecord.class, record -> Optional.empty());
        this.usage = usage;
    }

    /** The totals need a record's counts: its request and answer are skipped as they are read, not built into trees. */
    @JsonIgnoreProperties({"request", "response"})
    private interface CountsOnly {
    }

    @Incoming("usage-totals")
    public Uni<Void> consume(KafkaRecordBatch<String, String> poll) {
        return PollConsumer.consume(poll, reader, usage::count);
    }
}
