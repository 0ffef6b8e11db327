package org.llmplatform.training.messaging;

/** A record that is not a usable event; it goes to the dead-letter topic with this message as the reason. */
class MalformedRecordException extends RuntimeException {

    MalformedRecordException(String message) {
        super(message, null, false, false);
    }
}
