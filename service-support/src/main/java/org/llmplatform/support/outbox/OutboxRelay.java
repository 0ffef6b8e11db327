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
import java.util.Comparator;
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
 * every acknowledgement and only then commits the rows' deletion, all under a transaction-scoped advisory lock
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
        // not at its next poll a second later. The batch is deleted as it is read, one round trip less on the path every
        // event takes: the deletion commits only once Kafka acknowledged every record, and a failed send rolls it back.
        return connection.preparedQuery(LOCK).execute(Tuple.of(table))
                .chain(() -> connection.preparedQuery(batchDeletion(table)).execute(Tuple.of(config.batchSize())))
                .chain(this::send);
    }

    /**
     * The relay's lock, and for the rest of its transaction a plan made for each statement. An outbox is mostly empty,
     * so its statistics say so and a cached plan expects no rows: the batch's deletion then visited every row of a
     * backlog for each batch (with {@code id IN (SELECT … LIMIT n)}, every row against every id of the batch: 200 ms a
     * round at 2,000 rows waiting), and a backlog grew faster than it drained.
     */
    static final String LOCK = "SELECT pg_advisory_xact_lock(hashtext($1)),"
            + " set_config('plan_cache_mode', 'force_custom_plan', true)";

    /** The oldest batch ({@code $1} rows), deleted and returned; its ids are taken once, as an array. */
    static String batchDeletion(String table) {
        return "DELETE FROM " + table + " WHERE id = ANY(ARRAY(SELECT id FROM " + table + " ORDER BY id LIMIT $1))"
                + " RETURNING id, topic, message_key, payload";
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
