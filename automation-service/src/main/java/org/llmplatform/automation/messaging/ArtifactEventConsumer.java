package org.llmplatform.automation.messaging;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.llmplatform.automation.service.EventService;

/**
 * Consumes {@code artifact.events}: each record is acked once its event is stored. An invalid record
 * fails its message, so the channel's dead-letter strategy moves it to {@code artifact.events.dlq}.
 */
@ApplicationScoped
public class ArtifactEventConsumer {

    static final String CHANNEL = "artifact-events";

    /*
     * A valid event that cannot be stored yet (the database restarting) is retried in place: it keeps its
     * partition waiting rather than being dead-lettered at the first hiccup. One that still fails after
     * about five minutes is treated as poison and dead-lettered, so the partition moves on.
     */
    private static final Duration FIRST_STORE_RETRY = Duration.ofSeconds(1);
    private static final Duration LONGEST_STORE_RETRY = Duration.ofSeconds(30);
    private static final int STORE_RETRIES = 14;

    private final ArtifactEventReader reader;
    private final EventService events;

    public ArtifactEventConsumer(ArtifactEventReader reader, EventService events) {
        this.reader = reader;
        this.events = events;
    }

    @Incoming(CHANNEL)
    public Uni<Void> consume(String record) {
        return Uni.createFrom().item(() -> reader.read(record))
                .chain(event -> events.record(event)
                        .onFailure().retry().withBackOff(FIRST_STORE_RETRY, LONGEST_STORE_RETRY).atMost(STORE_RETRIES));
    }
}
