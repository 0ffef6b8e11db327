package org.llmplatform.tracing.usage;

import io.quarkus.kafka.client.serialization.ObjectMapperDeserializer;
import org.llmplatform.model.events.UsageRecord;

/** Reads {@code inference.usage} values; a value it cannot read goes to the dead-letter topic. */
public class UsageRecordDeserializer extends ObjectMapperDeserializer<UsageRecord> {

    public UsageRecordDeserializer() {
        super(UsageRecord.class);
    }
}
