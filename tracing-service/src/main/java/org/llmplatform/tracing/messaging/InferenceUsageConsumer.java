package org.llmplatform.tracing.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.UsageRecord;
import org.llmplatform.support.messaging.EventReader;
import org.llmplatform.tracing.service.UsageCalls;

/**
 * Consumes {@code inference.usage}. The record is acknowledged once its call is written; a record
 * that cannot become a call is nacked, which sends it to {@code inference.usage.dlq}.
 */
@ApplicationScoped
public class InferenceUsageConsumer {

    private final EventReader<UsageRecord> reader;
    private final UsageCalls usageCalls;

    public InferenceUsageConsumer(ObjectMapper json, UsageCalls usageCalls) {
        // What a record must hold to become a call, UsageCalls checks.
        this.reader = new EventReader<>(json, Topics.INFERENCE_USAGE, UsageRecord.class, usage -> Optional.empty());
        this.usageCalls = usageCalls;
    }

    @Incoming("inference-usage")
    public Uni<Void> consume(String record) {
        return reader.readOrDeadLetter(record).chain(usageCalls::record);
    }
}
