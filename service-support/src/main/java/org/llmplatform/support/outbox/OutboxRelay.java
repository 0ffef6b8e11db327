package org.llmplatform.support.outbox;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.llmplatform.support.worker.PeriodicWorker;

/**
 * Moves outbox rows to Kafka: takes the oldest batch, sends it with an idempotent producer, waits for
 * every acknowledgement and only then deletes the rows, all under a transaction-scoped advisory lock
 * so that one relay at a time publishes and records of a key keep their order across instances.
 */
@ApplicationScoped
public class OutboxRelay {

    private final OutboxConfig config;
    private final Map<String, Object> kafkaConfig;
    private final PeriodicWorker worker;
    private KafkaProducer<String, String> producer;

    public OutboxRelay(OutboxConfig config, Pool pool, Vertx vertx, @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig) {
        this.config = config;
        this.kafkaConfig = kafkaConfig;
        this.worker = new PeriodicWorker("Publishing the outbox", vertx, config.pollInterval(),
                () -> pool.withTransaction(this::publishBatch).map(published -> published == config.batchSize()));
    }

    void start(@Observes StartupEvent started) {
        if (config.table().isEmpty()) {
            return;
        }
        Map<String, Object> producerConfig = new HashMap<>();
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaConfig.get("bootstrap.servers"));
        producerConfig.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producerConfig.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfig.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        producer = new KafkaProducer<>(producerConfig);
        worker.start();
    }

    void stop(@Observes ShutdownEvent stopping) {
        worker.stop();
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }

    /** Asks for a publishing round now (one more after the running one, if one runs). */
    void wakeUp() {
        worker.wake();
    }

    private Uni<Integer> publishBatch(SqlConnection connection) {
        String table = config.table().orElseThrow();
        // Waits for the lock rather than trying it: a replica woken by its own insert while another replica's round
        // runs (which may have read the outbox before that insert committed) publishes right after that round,
        // not at its next poll a second later.
        return connection.preparedQuery("SELECT pg_advisory_xact_lock(hashtext($1))").execute(Tuple.of(table))
                .chain(() -> connection.preparedQuery("SELECT id, topic, message_key, payload FROM " + table + " ORDER BY id LIMIT $1")
                        .execute(Tuple.of(config.batchSize())))
                .chain(rows -> send(rows).chain(ids -> delete(connection, table, ids)));
    }

    /** On a worker thread: {@code KafkaProducer.send} blocks while it fetches a topic's metadata. */
    private Uni<List<Long>> send(RowSet<Row> rows) {
        return Uni.createFrom().item(() -> sendAll(rows))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .chain(sent -> Uni.createFrom().completionStage(sent.acks()).replaceWith(sent.ids()));
    }

    private record Sent(List<Long> ids, CompletableFuture<Void> acks) {
    }

    private Sent sendAll(RowSet<Row> rows) {
        List<Long> ids = new ArrayList<>();
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        for (Row row : rows) {
            ids.add(row.getLong("id"));
            CompletableFuture<Void> ack = new CompletableFuture<>();
            producer.send(new ProducerRecord<>(row.getString("topic"), row.getString("message_key"), row.getString("payload")),
                    (metadata, error) -> {
                        if (error == null) {
                            ack.complete(null);
                        } else {
                            ack.completeExceptionally(error);
                        }
                    });
            acks.add(ack);
        }
        return new Sent(ids, CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)));
    }

    private static Uni<Integer> delete(SqlConnection connection, String table, List<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return connection.preparedQuery("DELETE FROM " + table + " WHERE id = ANY($1)")
                .execute(Tuple.of(ids.toArray(Long[]::new)))
                .replaceWith(ids.size());
    }
}
