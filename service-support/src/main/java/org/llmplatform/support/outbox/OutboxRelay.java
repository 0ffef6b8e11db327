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
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.llmplatform.support.worker.PeriodicWorker;

/**
 * Moves outbox rows to Kafka: takes the oldest batch, sends it with an idempotent producer, waits for
 * every acknowledgement and only then commits the rows' deletion, all under a transaction-scoped advisory lock
 * so that one relay at a time publishes and records of a key keep their order across instances.
 */
@ApplicationScoped
public class OutboxRelay {

    private final OutboxConfig config;
    private final Map<String, Object> kafkaConfig;
    private final PeriodicWorker worker;
    /** The round's first statements, {@link #takeBatch} for the configured table; empty without an outbox. */
    private final Optional<String> roundStart;
    private KafkaProducer<String, String> producer;

    public OutboxRelay(OutboxConfig config, Pool pool, Vertx vertx, @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig) {
        this.config = config;
        this.kafkaConfig = kafkaConfig;
        this.roundStart = config.table().map(table -> takeBatch(table, config.batchSize()));
        this.worker = new PeriodicWorker("Publishing the outbox", vertx, config.pollInterval(),
                () -> pool.withConnection(this::publishRound).map(published -> published == config.batchSize()));
    }

    void start(@Observes StartupEvent started) {
        if (roundStart.isEmpty()) {
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

    /**
     * One round: the lock and the oldest batch in the round trip that begins the transaction, the batch sent, and the
     * transaction committed once Kafka acknowledged every record, or rolled back (a failed send leaves the rows).
     */
    private Uni<Integer> publishRound(SqlConnection connection) {
        return connection.query(roundStart.orElseThrow()).execute()
                .chain(results -> send(results.next().next()))
                .call(() -> connection.query("COMMIT").execute())
                .onFailure().call(() -> connection.query("ROLLBACK").execute().onFailure().recoverWithNull());
    }

    /**
     * The statements that begin a round, sent as one simple query: {@code BEGIN}, the relay's lock, and the oldest
     * batch deleted and returned. PostgreSQL runs them one after another, each with a snapshot taken when it starts, so
     * the deletion sees every row committed before the lock was granted.
     * <p>
     * The lock is waited for rather than tried: a replica woken by its own insert while another replica's round runs
     * (which may have read the outbox before that insert committed) publishes right after that round, not at its next
     * poll a second later. The batch is deleted as it is read, one round trip less on the path every event takes: the
     * deletion commits only once Kafka acknowledged every record. A simple query is planned for its rows each time: an
     * outbox is mostly empty, so a plan cached while it was would expect no rows, and its deletion visited every row of
     * a backlog for each batch (200 ms a round at 2,000 rows waiting), so that a backlog grew faster than it drained.
     */
    static String takeBatch(String table, int batchSize) {
        return "BEGIN; SELECT pg_advisory_xact_lock(hashtext('" + table.replace("'", "''") + "')); "
                + "DELETE FROM " + table + " WHERE id = ANY(ARRAY(SELECT id FROM " + table + " ORDER BY id LIMIT " + batchSize
                + ")) RETURNING id, topic, message_key, payload";
    }

    /** On a worker thread: {@code KafkaProducer.send} blocks while it fetches a topic's metadata. */
    private Uni<Integer> send(RowSet<Row> rows) {
        List<Row> inOrder = new ArrayList<>(rows.size());
        rows.forEach(inOrder::add);
        if (inOrder.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        inOrder.sort(Comparator.comparingLong(row -> row.getLong("id")));
        return Uni.createFrom().item(() -> sendAll(inOrder))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .chain(acks -> Uni.createFrom().completionStage(acks).replaceWith(inOrder.size()));
    }

    /** Completes once Kafka acknowledged every record. */
    private CompletableFuture<Void> sendAll(List<Row> rows) {
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        for (Row row : rows) {
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
        return CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new));
    }
}
