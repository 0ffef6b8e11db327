package org.llmplatform.tracing.otel;

/** An OTLP body that cannot be read at all (truncated, garbage, wrong JSON shape): the whole request is refused. */
public class MalformedOtlpException extends RuntimeException {

    public MalformedOtlpException(String message) {
        super(message);
    }
}
