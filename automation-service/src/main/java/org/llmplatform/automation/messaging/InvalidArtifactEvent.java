package org.llmplatform.automation.messaging;

/** A record on the artifact events topic that is not a valid event: it goes to the dead-letter topic. */
public class InvalidArtifactEvent extends RuntimeException {

    public InvalidArtifactEvent(String message) {
        super(message, null, false, false);
    }
}
