package org.llmplatform.inference.checkpoints;

/** A checkpoint event that parsed but cannot be registered; it belongs in the dead-letter topic. */
public class MalformedCheckpoint extends RuntimeException {

    public MalformedCheckpoint(String message) {
        super(message, null, false, false);
    }
}
