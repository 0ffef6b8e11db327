package org.llmplatform.automation.messaging;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.automation.service.EventService;
import org.llmplatform.model.events.ArtifactEvent;

/**
 * Consumes {@code artifact.events} in batches: the valid events of a poll are stored, matched and their
 * deliveries queued in one transaction; records that are not valid events go to {@code artifact.events.dlq}
 * through {@link DeadLetters}. The batch is acked once both are done, so its offsets are committed only then.
 */
@ApplicationScoped
public class ArtifactEventConsumer {

    static final String CHANNEL = "artifact-events";

    /*
     * A batch that cannot be stored (the database restarting) is retried in place for about five minutes,
     * keeping its partitions waiting rather than dead-lettering valid events at the first hiccup. Should it
     * still fail, its events are stored one by one, so a single event the database refuses is the only one
     * dead-lettered and the partition moves on.
     */
    private static final Duration FIRST_STORE_RETRY = Duration.ofSeconds(1);
    private static final Duration LONGEST_STORE_RETRY = Duration.ofSeconds(30);
    private static final int BATCH_STORE_RETRIES = 14;
    private static final int SINGLE_STORE_RETRIES = 2;

    private final ArtifactEventReader reader;
    private final EventService events;
    private final DeadLetters deadLetters;

    public ArtifactEventConsumer(ArtifactEventReader reader, EventService events, DeadLetters deadLetters) {
        this.reader = reader;
        this.events = events;
        this.deadLetters = deadLetters;
    }

    @Incoming(CHANNEL)
    public Uni<Void> consume(ConsumerRecords<String, String> records) {
        List<Received> valid = new ArrayList<>(records.count());
        List<Uni<Void>> rejected = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            try {
                valid.add(new Received(record, reader.read(record.value())));
            } catch (InvalidArtifactEvent invalid) {
                rejected.add(deadLetters.send(record, invalid.getMessage()));
            }
        }
        Uni<Void> stored = valid.isEmpty() ? Uni.createFrom().voidItem() : events.recordAll(valid.stream().map(Received::event).toList())
                .onFailure().retry().withBackOff(FIRST_STORE_RETRY, LONGEST_STORE_RETRY).atMost(BATCH_STORE_RETRIES)
                .onFailure().recoverWithUni(failure -> oneByOne(valid, failure));
        return rejected.isEmpty() ? stored : stored.chain(() -> Uni.join().all(rejected).andFailFast().replaceWithVoid());
    }

    private Uni<Void> oneByOne(List<Received> valid, Throwable batchFailure) {
        Log.warnf("Storing a batch of %d artifact events kept failing (%s); storing them one by one", valid.size(),
                batchFailure.getMessage());
        return Multi.createFrom().iterable(valid)
                .onItem().transformToUniAndConcatenate(received -> events.recordAll(List.of(received.event()))
                        .onFailure().retry().withBackOff(FIRST_STORE_RETRY, LONGEST_STORE_RETRY).atMost(SINGLE_STORE_RETRIES)
                        .onFailure().recoverWithUni(failure -> deadLetters.send(received.record(),
                                "The event could not be stored: " + failure.getMessage())))
                .collect().last()
                .replaceWithVoid();
    }

    private record Received(ConsumerRecord<String, String> record, ArtifactEvent event) {
    }
}
