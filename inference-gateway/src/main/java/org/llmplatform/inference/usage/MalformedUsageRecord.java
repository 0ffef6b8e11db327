package org.llmplatform.inference.usage;

/** A usage record that parsed as JSON but cannot be counted; it belongs in the dead-letter topic. */
public class MalformedUsageRecord extends RuntimeException {

    public MalformedUsageRecord(String message) {
        super(message, null, false, false);
    }
}
