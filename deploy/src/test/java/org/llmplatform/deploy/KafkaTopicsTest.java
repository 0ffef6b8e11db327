package org.llmplatform.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.deploy.Manifests.ofKind;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
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
