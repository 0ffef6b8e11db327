package org.llmplatform.automation.security;

/** A webhook URL the service refuses to call, with the reason a person can act on. */
public class UnsafeUrl extends RuntimeException {

    public UnsafeUrl(String message) {
        super(message, null, false, false);
    }
}
