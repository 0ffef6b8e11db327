package org.llmplatform.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.deploy.Manifests.ofKind;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.llmplatform.model.Topics;

class KafkaTopicsTest {

    private final List<ObjectNode> topics = ofKind(Manifests.base(), "KafkaTopic");

    private Set<String> declared() {
        return topics.stream().map(topic -> topic.path("spec").path("topicName").asText()).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void everyTopicOfTheSharedModelHasAKafkaTopicAndNoOtherExists() {
        assertEquals(new TreeSet<>(Topics.ALL), declared());
    }

    @Test
    void everyTopicAServiceIsConfiguredWithIsDeclared() {
        for (String service : Services.NAMES) {
            Properties properties = Services.applicationProperties(service);
            for (String key : properties.stringPropertyNames()) {
                if (key.startsWith("mp.messaging.") && (key.endsWith(".topic") || key.endsWith(".dead-letter-queue.topic"))) {
                    String topic = properties.getProperty(key);
                    assertTrue(declared().contains(topic), service + " uses " + topic + " (" + key + ") with no KafkaTopic");
                }
            }
        }
    }

    /**
     * A consumer group gets at most one consumer per partition: a replica beyond the partition count would sit idle
     * while the autoscaler counts it as capacity. Every topic a service consumes has at least as many partitions as
     * the service's autoscaler may run replicas, in the base and in every overlay kubectl can render.
     */
    @Test
    void everyConsumedTopicHasAPartitionForEachReplicaTheAutoscalerMayRun() {
        assertEquals(List.of(), idleConsumers(Manifests.base()));
        for (String overlay : Manifests.OVERLAYS) {
            Manifests.rendered(overlay).ifPresent(resources -> assertEquals(List.of(), idleConsumers(resources), overlay));
        }
    }

    @Test
    void aConsumerGroupWithMoreReplicasThanPartitionsIsReported() {
        List<ObjectNode> base = Manifests.base();
        ofKind(base, "HorizontalPodAutoscaler").stream()
                .filter(autoscaler -> autoscaler.path("metadata").path("name").asText().equals("automation-service"))
                .forEach(autoscaler -> ((ObjectNode) autoscaler.path("spec")).put("maxReplicas", 7));
        assertEquals(List.of("automation-service may run 7 replicas but artifact.events has 6 partitions"), idleConsumers(base));
    }

    private static List<String> idleConsumers(List<ObjectNode> resources) {
        Map<String, Integer> partitions = ofKind(resources, "KafkaTopic").stream().collect(Collectors.toMap(
                topic -> topic.path("spec").path("topicName").asText(), topic -> topic.path("spec").path("partitions").asInt()));
        Map<String, Integer> maxReplicas = ofKind(resources, "HorizontalPodAutoscaler").stream().collect(Collectors.toMap(
                autoscaler -> autoscaler.path("spec").path("scaleTargetRef").path("name").asText(),
                autoscaler -> autoscaler.path("spec").path("maxReplicas").asInt()));
        List<String> problems = new ArrayList<>();
        for (String service : Services.NAMES) {
            Properties properties = Services.applicationProperties(service);
            for (String key : new TreeSet<>(properties.stringPropertyNames())) {
                if (!key.matches("mp\\.messaging\\.incoming\\.[^.]+\\.topic")) {
                    continue;
                }
                String topic = properties.getProperty(key);
                int replicas = maxReplicas.getOrDefault(service, 0);
                if (partitions.getOrDefault(topic, 0) < replicas) {
                    problems.add(service + " may run " + replicas + " replicas but " + topic + " has " + partitions.getOrDefault(topic, 0)
                            + " partitions");
                }
            }
        }
        return problems;
    }

    @Test
    void everyTopicStatesItsPartitionsReplicasAndRetention() {
        for (ObjectNode topic : topics) {
            String name = topic.path("spec").path("topicName").asText();
            assertTrue(topic.path("spec").path("partitions").asInt() >= 1, name);
            assertEquals(3, topic.path("spec").path("replicas").asInt(), name);
            assertTrue(topic.path("spec").path("config").path("retention.ms").asLong() > 0, name);
            assertEquals("platform-kafka", topic.path("metadata").path("labels").path("strimzi.io/cluster").asText(), name);
        }
    }
}
