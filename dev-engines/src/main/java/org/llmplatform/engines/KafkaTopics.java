package org.llmplatform.engines;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.llmplatform.model.Topics;

/** Creates every topic of the platform that does not exist yet; the broker never auto-creates them. */
public final class KafkaTopics {

    public static void createMissing(String bootstrapServers, int partitions) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = Topics.ALL.stream()
                    .filter(topic -> !existing.contains(topic))
                    .map(topic -> new NewTopic(topic, partitions, (short) 1))
                    .toList();
            admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating Kafka topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not create the Kafka topics at " + bootstrapServers, e);
        }
    }

    private KafkaTopics() {
    }
}
