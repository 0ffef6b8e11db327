package org.llmplatform.automation.messaging;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Publishes a poison record of {@code artifact.events} to {@code artifact.events.dlq} as the connector's
 * dead-letter strategy would: same key and value, its own headers kept, and {@code dead-letter-reason},
 * {@code -topic}, {@code -partition} and {@code -offset} added. Batches are consumed whole, so the connector
 * cannot single out a bad record itself.
 */
@ApplicationScoped
public class DeadLetters {

    static final String CHANNEL = "artifact-events-dlq";

    private final MutinyEmitter<String> emitter;

    public DeadLetters(@Channel(CHANNEL) MutinyEmitter<String> emitter) {
        this.emitter = emitter;
    }

    /** Completes once the broker has the dead letter. */
    public Uni<Void> send(ConsumerRecord<String, String> record, String reason) {
        Headers headers = new RecordHeaders(record.headers().toArray());
        headers.add("dead-letter-reason", bytes(reason));
        headers.add("dead-letter-topic", bytes(record.topic()));
        headers.add("dead-letter-partition", bytes(Integer.toString(record.partition())));
        headers.add("dead-letter-offset", bytes(Long.toString(record.offset())));
        OutgoingKafkaRecordMetadata<String> metadata = OutgoingKafkaRecordMetadata.<String>builder()
                .withKey(record.key())
                .withHeaders(headers)
                .build();
        return emitter.sendMessage(Message.of(record.value()).addMetadata(metadata));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
