package org.llmplatform.inference.messaging;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;
import org.llmplatform.model.events.UsageRecord;

/**
 * Publishes one {@link UsageRecord} per finished request on {@code inference.usage}, keyed by project. The
 * emitter buffers what the Kafka sink has not asked for yet: with the default 256 a burst of completions
 * (a few thousand per second while the broker acknowledges slowly) overflowed it, and every record that did
 * not fit was lost, logging a stack trace each on the request's thread. The Kafka producer's own buffer
 * ({@code buffer.memory}) bounds what waits for the broker.
 */
@ApplicationScoped
public class UsagePublisher {

    private static final Logger LOG = Logger.getLogger(UsagePublisher.class);

    private final MutinyEmitter<UsageRecord> records;

    public UsagePublisher(@Channel("usage-records") @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 16384)
            MutinyEmitter<UsageRecord> records) {
        this.records = records;
    }

    public void publish(UsageRecord record) {
        Message<UsageRecord> message = Message.of(record)
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(record.projectId()).build())
                .withNack(failure -> {
                    LOG.errorf(failure, "Usage record %s was not published", record.requestId());
                    return java.util.concurrent.CompletableFuture.completedFuture(null);
                });
        records.sendMessageAndForget(message);
    }
}
