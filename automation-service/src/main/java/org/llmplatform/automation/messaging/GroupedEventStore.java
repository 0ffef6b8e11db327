package org.llmplatform.automation.messaging;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.llmplatform.automation.service.EventService;
import org.llmplatform.model.events.ArtifactEvent;

/**
 * Stores the events of consumed batches in group commits: one storing statement at a time, and every batch
 * handed over while it runs goes into the next one together. Taking a poll's records as they come and
 * storing them one batch after another would keep each record waiting behind the statements of the batches
 * polled before it (and leave the connector pausing the partitions meanwhile); grouping keeps that wait to
 * at most the one statement under way, however small the polls are.
 */
@ApplicationScoped
public class GroupedEventStore {

    /*
     * A group that cannot be stored (the database restarting) is retried in place for about five minutes,
     * keeping its batches unacknowledged rather than dead-lettering valid events at the first hiccup. Should
     * it still fail, its events are stored one by one, so a single event the database refuses is the only
     * one dead-lettered and the partition moves on.
     */
    private static final Duration FIRST_STORE_RETRY = Duration.ofSeconds(1);
    private static final Duration LONGEST_STORE_RETRY = Duration.ofSeconds(30);
    private static final int GROUP_STORE_RETRIES = 14;
    private static final int SINGLE_STORE_RETRIES = 2;
    /** The most events one statement stores; batches beyond wait for the next one. */
    private static final int GROUP_LIMIT = 1000;

    private final EventService events;
    private final DeadLetters deadLetters;
    private final List<Waiting> waiting = new ArrayList<>();
    private boolean storing;

    public GroupedEventStore(EventService events, DeadLetters deadLetters) {
        this.events = events;
        this.deadLetters = deadLetters;
    }

    /** Completes once every event is stored, or dead-lettered verbatim from its record when it cannot be. */
    public Uni<Void> store(List<Received> received) {
        if (received.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Waiting batch = new Waiting(received, new CompletableFuture<>());
        boolean start;
        synchronized (this) {
            waiting.add(batch);
            start = !storing;
            storing = true;
        }
        if (start) {
            storeNextGroup();
        }
        return Uni.createFrom().completionStage(batch.stored());
    }

    /** The events handed over but not stored yet; the consumer holds back new polls while there are many. */
    public synchronized int backlog() {
        return waiting.stream().mapToInt(batch -> batch.received().size()).sum();
    }

    private void storeNextGroup() {
        List<Waiting> group = new ArrayList<>();
        synchronized (this) {
            int size = 0;
            while (!waiting.isEmpty() && (group.isEmpty() || size + waiting.get(0).received().size() <= GROUP_LIMIT)) {
                Waiting next = waiting.remove(0);
                size += next.received().size();
                group.add(next);
            }
            if (group.isEmpty()) {
                storing = false;
                return;
            }
        }
        List<Received> received = group.stream().flatMap(batch -> batch.received().stream()).toList();
        events.recordAll(received.stream().map(Received::event).toList())
                .onFailure().retry().withBackOff(FIRST_STORE_RETRY, LONGEST_STORE_RETRY).atMost(GROUP_STORE_RETRIES)
                .onFailure().recoverWithUni(failure -> oneByOne(received, failure))
                .subscribe().with(
                        stored -> {
                            group.forEach(batch -> batch.stored().complete(null));
                            storeNextGroup();
                        },
                        failure -> {
                            group.forEach(batch -> batch.stored().completeExceptionally(failure));
                            storeNextGroup();
                        });
    }

    private Uni<Void> oneByOne(List<Received> received, Throwable groupFailure) {
        Log.warnf("Storing a group of %d artifact events kept failing (%s); storing them one by one", received.size(),
                groupFailure.getMessage());
        return Multi.createFrom().iterable(received)
                .onItem().transformToUniAndConcatenate(one -> events.recordAll(List.of(one.event()))
                        .onFailure().retry().withBackOff(FIRST_STORE_RETRY, LONGEST_STORE_RETRY).atMost(SINGLE_STORE_RETRIES)
                        .onFailure().recoverWithUni(failure -> deadLetters.send(one.record(),
                                "The event could not be stored: " + failure.getMessage())))
                .collect().last()
                .replaceWithVoid();
    }

    /** A valid event and the record it came in, to dead-letter verbatim should it never be stored. */
    public record Received(ConsumerRecord<String, String> record, ArtifactEvent event) {
    }

    private record Waiting(List<Received> received, CompletableFuture<Void> stored) {
    }
}
