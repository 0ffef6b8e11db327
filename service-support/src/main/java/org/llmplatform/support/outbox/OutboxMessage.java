package org.llmplatform.support.outbox;

/** A Kafka record waiting in the outbox: topic, key (null for none) and the JSON value. */
public record OutboxMessage(String topic, String key, String payload) {
}
