package org.llmplatform.automation.messaging;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordBatchMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.automation.messaging.GroupedEventStore.Received;

/**
 * Consumes {@code artifact.events} in batches: the valid events of a poll are handed to the
 * {@link GroupedEventStore}, which stores them with their deliveries; records that are not valid events go to
 * {@code artifact.events.dlq} through {@link DeadLetters}. The batch is acked once both are done, so its
 * offsets are committed only then (a failure nacks it, and the connector's dead-letter strategy takes it).
 * The next poll is taken while earlier batches are still being stored, so that they are stored together.
 */
@ApplicationScoped
public class ArtifactEventConsumer {

    static final String CHANNEL = "artifact-events";

    /** Events handed over and not yet stored beyond which a batch is waited for before the next poll is taken. */
    private static final int BACKLOG_LIMIT = 2000;

    private final ArtifactEventReader reader;
    private final GroupedEventStore store;
    private final DeadLetters deadLetters;

    public ArtifactEventConsumer(ArtifactEventReader reader, GroupedEventStore store, DeadLetters deadLetters) {
        this.reader = reader;
        this.store = store;
        this.deadLetters = deadLetters;
    }

    @Incoming(CHANNEL)
    @SuppressWarnings("unchecked")
    public Uni<Void> consume(KafkaRecordBatch<String, String> batch) {
        ConsumerRecords<String, String> records = batch.getMetadata(IncomingKafkaRecordBatchMetadata.class)
                .map(metadata -> (ConsumerRecords<String, String>) metadata.getRecords())
                .orElseThrow(() -> new IllegalStateException("a batch of the " + CHANNEL + " channel came without its records"));
        List<Received> valid = new ArrayList<>(records.count());
        List<Uni<Void>> rejected = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            try {
                valid.add(new Received(record, reader.read(record.value())));
            } catch (InvalidArtifactEvent invalid) {
                rejected.add(deadLetters.send(record, invalid.getMessage()));
            }
        }
        Uni<Void> stored = store.store(valid);
        Uni<Void> handled = (rejected.isEmpty() ? stored : stored.chain(() -> Uni.join().all(rejected).andFailFast().replaceWithVoid()))
                .onItemOrFailure().transformToUni((done, failure) -> Uni.createFrom().completionStage(
                        failure == null ? batch.ack() : batch.nack(failure)));
        if (store.backlog() > BACKLOG_LIMIT) {
            return handled;
        }
        handled.subscribe().with(done -> { }, failure -> Log.errorf(failure, "A batch of %s could not be acknowledged", CHANNEL));
        return Uni.createFrom().voidItem();
    }
}
