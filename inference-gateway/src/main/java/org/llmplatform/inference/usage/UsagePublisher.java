package org.llmplatform.inference.usage;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.kafka.client.serialization.ObjectMapperSerializer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.UsageRecord;

/**
 * Publishes one {@link UsageRecord} per finished request on {@code inference.usage}, keyed by project, off
 * the request's thread. A request only queues its record; one publishing thread hands what gathered to the
 * Kafka producer every {@value #HAND_OFF_MILLIS} ms. Through the messaging emitter each record ran a reactive
 * pipeline on the event loop and woke the connector's sending thread: under load that was an eighth of the
 * event loop's time and a context switch per request. {@code KafkaProducer.send} may block (a topic's
 * metadata, a full buffer), so it never runs on an event loop.
 *
 * <p>What waits is bounded ({@value #MAX_QUEUED} records, then the producer's {@code buffer.memory}); a record
 * beyond that, or one the broker refuses, is logged as lost. On shutdown the queue is sent and the producer
 * flushed before the service stops.
 */
@Singleton
public class UsagePublisher {

    private static final Logger LOG = Logger.getLogger(UsagePublisher.class);
    static final long HAND_OFF_MILLIS = 5;
    static final int MAX_QUEUED = 65_536;
    /** The producer's own batching: one produce request per partition and window instead of one per record. */
    private static final int LINGER_MILLIS = 20;
    /**
     * A window's records are near-copies of each other (same keys, project, model): compressed, the broker writes
     * and serves a fraction of the bytes. Measured under load: the broker's CPU per request about halved, and the
     * compressing cost the gateway nothing it could measure.
     */
    private static final String COMPRESSION = "lz4";

    private final Map<String, Object> kafkaConfig;
    private final ObjectMapper json;
    private final Queue<UsageRecord> queued = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queuedCount = new AtomicInteger();
    private final AtomicBoolean handOffScheduled = new AtomicBoolean();
    private final ScheduledExecutorService publisher = Executors.newSingleThreadScheduledExecutor(
            task -> new Thread(task, "usage-publisher"));
    private volatile KafkaProducer<String, UsageRecord> producer;

    public UsagePublisher(@Identifier("default-kafka-broker") Map<String, Object> kafkaConfig, ObjectMapper json) {
        this.kafkaConfig = kafkaConfig;
        this.json = json;
    }

    void start(@Observes StartupEvent started) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaConfig.get("bootstrap.servers"));
        config.put(ProducerConfig.LINGER_MS_CONFIG, LINGER_MILLIS);
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, COMPRESSION);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "inference-gateway-usage");
        producer = new KafkaProducer<>(config, new StringSerializer(), new ObjectMapperSerializer<>(json));
    }

    void stop(@Observes ShutdownEvent stopping) throws InterruptedException {
        publisher.shutdown();
        publisher.awaitTermination(5, TimeUnit.SECONDS);
        handOff();
        if (producer != null) {
            producer.close(Duration.ofSeconds(10));
        }
    }

    public void publish(UsageRecord record) {
        if (queuedCount.getAndIncrement() >= MAX_QUEUED) {
            queuedCount.decrementAndGet();
            LOG.errorf("Usage record %s was not published: %d records already wait for Kafka", record.requestId(), MAX_QUEUED);
            return;
        }
        queued.add(record);
        if (handOffScheduled.compareAndSet(false, true)) {
            try {
                publisher.schedule(this::handOff, HAND_OFF_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopping) {
                // the shutdown's own last hand-off sends it
                handOffScheduled.set(false);
            }
        }
    }

    /** Cleared before the queue is read, so a record queued while it runs schedules the next hand-off. */
    private void handOff() {
        handOffScheduled.set(false);
        UsageRecord record;
        while ((record = queued.poll()) != null) {
            queuedCount.decrementAndGet();
            send(record);
        }
    }

    private void send(UsageRecord record) {
        try {
            producer.send(new ProducerRecord<>(Topics.INFERENCE_USAGE, record.projectId(), record), (metadata, failure) -> {
                if (failure != null) {
                    LOG.errorf(failure, "Usage record %s was not published", record.requestId());
                }
            });
        } catch (RuntimeException failure) {
            LOG.errorf(failure, "Usage record %s was not published", record.requestId());
        }
    }
}
