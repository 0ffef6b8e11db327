package org.llmplatform.tracing.usage;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.model.events.UsageRecord;

/**
 * Consumes {@code inference.usage}. The record is acknowledged once its call is written; a record
 * that cannot become a call is nacked, which sends it to {@code inference.usage.dlq}.
 */
@ApplicationScoped
public class InferenceUsageConsumer {

    private final UsageCalls usageCalls;

    public InferenceUsageConsumer(UsageCalls usageCalls) {
        this.usageCalls = usageCalls;
    }

    @Incoming("inference-usage")
    public Uni<Void> consume(UsageRecord usage) {
        return usageCalls.record(usage);
    }
}
