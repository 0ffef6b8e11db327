package org.llmplatform.support.messaging;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Consumes a Kafka poll (a channel with {@code batch=true} and text values) as one unit of work, typically one
 * database transaction where one per record cost a transaction per event. Each value is read through the
 * topic's {@link EventReader} first; the work gets the events that read, and answers the ones it refused in
 * turn. Unreadable and refused records are nacked alone, so the channel's failure strategy (the dead-letter
 * topic) gets exactly them, as they came; then the poll is acknowledged. When the work fails, the whole poll is
 * nacked.
 */
public final class PollConsumer {

    private static final Logger LOG = Logger.getLogger(PollConsumer.class);

    /** An event the work did not take: its index among the events it was given, and why. */
    public record Refusal(int index, Throwable reason) {
    }

    public static <K, T> Uni<Void> consume(KafkaRecordBatch<K, String> poll, EventReader<T> reader,
            Function<List<T>, Uni<List<Refusal>>> work) {
        return consume(poll, reader, Instant.MIN, work);
    }

    /**
     * As {@link #consume(KafkaRecordBatch, EventReader, Function)}, but records the topic has held since before
     * {@code expiredBefore} (by their Kafka timestamp, which a redelivery keeps) are acknowledged unread: what the
     * work remembers of them to handle a redelivery once may be forgotten by then.
     */
    public static <K, T> Uni<Void> consume(KafkaRecordBatch<K, String> poll, EventReader<T> reader,
            Instant expiredBefore, Function<List<T>, Uni<List<Refusal>>> work) {
        List<KafkaRecord<K, String>> records = poll.getRecords();
        return Uni.createFrom().deferred(() -> {
                    List<T> events = new ArrayList<>(records.size());
                    List<Integer> positions = new ArrayList<>(records.size());
                    List<Refusal> refused = new ArrayList<>();
                    int expired = 0;
                    for (int i = 0; i < records.size(); i++) {
                        Instant appended = records.get(i).getTimestamp();
                        if (appended != null && appended.isBefore(expiredBefore)) {
                            expired++;
                            continue;
                        }
                        try {
                            events.add(reader.read(records.get(i).getPayload()));
                            positions.add(i);
                        } catch (MalformedEvent malformed) {
                            LOG.warnf("Dead-lettering a malformed %s record: %s", records.get(i).getTopic(), malformed.getMessage());
                            refused.add(new Refusal(i, malformed));
                        }
                    }
                    if (expired > 0) {
                        LOG.infof("Skipped %d %s records older than %s", expired, records.get(0).getTopic(), expiredBefore);
                    }
                    return work.apply(events).map(refusedByWork -> {
                        refusedByWork.forEach(refusal -> refused.add(new Refusal(positions.get(refusal.index()), refusal.reason())));
                        return refused;
                    });
                })
                .flatMap(refusals -> Multi.createFrom().iterable(refusals)
                        .onItem().transformToUniAndConcatenate(refusal -> Uni.createFrom().completionStage(
                                () -> records.get(refusal.index()).nack(refusal.reason())))
                        .collect().last())
                .flatMap(nacked -> Uni.createFrom().completionStage(poll::ack))
                .onFailure().recoverWithUni(failure -> Uni.createFrom().completionStage(() -> poll.nack(failure)));
    }

    private PollConsumer() {
    }
}
