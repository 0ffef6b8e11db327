package org.llmplatform.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/** A single-node KRaft broker ({@code kafka.Kafka}) in its own JVM, its log kept under the data folder. */
final class KafkaBroker {

    static ChildProcess start(Path dataDirectory, int port, Path logs) throws IOException, InterruptedException {
        Path home = dataDirectory.resolve("kafka");
        Path logDirectory = home.resolve("data");
        Path config = home.resolve("server.properties");
        Files.createDirectories(home);
        Files.writeString(config, serverProperties(port, logDirectory));
        if (!Files.exists(logDirectory.resolve("meta.properties"))) {
            ChildProcess.run("kafka-storage-format", Java.command(List.of(), "kafka.tools.StorageTool",
                    "format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()), logs.resolve("kafka-format.log"));
        }
        return ChildProcess.start("kafka", Java.command(List.of("-Xms64m", "-Xmx384m", "-XX:+UseSerialGC"), "kafka.Kafka", config.toString()),
                Map.of(), logs.resolve("kafka.log"));
    }

    static void awaitReady(ChildProcess broker, String bootstrapServers, long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000))) {
            while (true) {
                if (!broker.isAlive()) {
                    throw new IllegalStateException("Kafka exited during start-up:\n" + broker.logTail());
                }
                try {
                    admin.describeCluster().nodes().get(3, TimeUnit.SECONDS);
                    return;
                } catch (Exception notYet) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("Kafka was not ready within " + timeoutSeconds + " s:\n" + broker.logTail());
                    }
                    Thread.sleep(250);
                }
            }
        }
    }

    private static String serverProperties(int port, Path logDirectory) {
        int controllerPort = port + 1;
        return String.join("\n", List.of(
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@localhost:" + controllerPort,
                "listeners=PLAINTEXT://localhost:" + port + ",CONTROLLER://localhost:" + controllerPort,
                "advertised.listeners=PLAINTEXT://localhost:" + port,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + logDirectory,
                "num.partitions=1",
                "auto.create.topics.enable=false",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "log.retention.hours=168")) + "\n";
    }

    private KafkaBroker() {
    }
}
