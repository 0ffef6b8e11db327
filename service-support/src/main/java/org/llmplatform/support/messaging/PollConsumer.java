package org.llmplatform.support.messaging;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import java.util.List;
import java.util.function.Function;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Consumes a Kafka poll (a channel with {@code batch=true}) as one unit of work, typically one database
 * transaction where one per record cost a transaction per event: the work gets the poll's payloads (null
 * for a value that could not be deserialised) and answers the records it refused. Those are nacked alone,
 * so the channel's failure strategy (the dead-letter topic) gets exactly them, then the poll is
 * acknowledged. When the work fails, the whole poll is nacked.
 */
public final class PollConsumer {

    /** A record of the poll that the work did not take: its index among the payloads, and why. */
    public record Refusal(int index, Throwable reason) {
    }

    public static <K, V> Uni<Void> consume(KafkaRecordBatch<K, V> poll, Function<List<V>, Uni<List<Refusal>>> work) {
        List<KafkaRecord<K, V>> records = poll.getRecords();
        return Uni.createFrom().deferred(() -> work.apply(records.stream().map(Message::getPayload).toList()))
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
