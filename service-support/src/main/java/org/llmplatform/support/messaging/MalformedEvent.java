package org.llmplatform.support.messaging;

/** A Kafka record that is not a usable event; failing with it sends the record to the dead-letter topic, this message as the reason. */
public class MalformedEvent extends RuntimeException {

    public MalformedEvent(String message) {
        super(message, null, false, false);
    }
}
