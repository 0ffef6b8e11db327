package org.llmplatform.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.server.common.MetadataVersion;
import org.llmplatform.engines.KafkaTopics;
import org.llmplatform.engines.PostgresServer;

/**
 * Starts one real PostgreSQL and one in-process KRaft Kafka broker per test JVM, shared by every
 * {@code @QuarkusTest} of the module (Quarkus may restart the application; the engines stay up),
 * and stops them when the JVM exits.
 */
public class PlatformTestResources implements QuarkusTestResourceLifecycleManager {

    /** The bootstrap administrator key every service is started with in tests. */
    public static final String ADMIN_KEY = "test-bootstrap-admin-key";

    private static PostgresServer postgres;
    private static KafkaClusterTestKit kafka;

    @Override
    public Map<String, String> start() {
        Engines engines = engines();
        Map<String, String> config = new HashMap<>(engines.postgres().quarkusConfig());
        config.put("kafka.bootstrap.servers", engines.kafkaBootstrapServers());
        config.put("platform.auth.bootstrap-admin-key", ADMIN_KEY);
        return config;
    }

    @Override
    public void stop() {
        // The engines outlive each application start; the shutdown hook stops them with the JVM.
    }

    /** The engines of this JVM, started on first use. */
    public static synchronized Engines engines() {
        if (postgres == null) {
            postgres = PostgresServer.startTemporary();
            kafka = startKafka();
            KafkaTopics.createMissing(kafka.bootstrapServers(), 2);
            Runtime.getRuntime().addShutdownHook(new Thread(PlatformTestResources::stopEngines, "test-engines-stop"));
        }
        return new Engines(postgres, kafka.bootstrapServers());
    }

    private static KafkaClusterTestKit startKafka() {
        // The broker runs inside the test JVM: a fatal error of it (say, while the JVM shuts down and the
        // broker's log directory goes away) must be reported, not halt the JVM and fail a green test run.
        Exit.setExitProcedure((status, message) -> System.err.println("The in-process Kafka broker asked to exit (" + status + "): " + message));
        Exit.setHaltProcedure((status, message) -> System.err.println("The in-process Kafka broker asked to halt (" + status + "): " + message));
        try {
            KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .setBootstrapMetadataVersion(MetadataVersion.latestProduction())
                    .build())
                    .setConfigProp("auto.create.topics.enable", "false")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("offsets.topic.num.partitions", "1")
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return cluster;
        } catch (Exception e) {
            throw new IllegalStateException("the in-process Kafka broker did not start", e);
        }
    }

    private static synchronized void stopEngines() {
        try {
            kafka.close();
        } catch (Exception e) {
            System.err.println("Kafka did not stop cleanly: " + e);
        }
        postgres.close();
    }

    public record Engines(PostgresServer postgres, String kafkaBootstrapServers) {
    }
}
