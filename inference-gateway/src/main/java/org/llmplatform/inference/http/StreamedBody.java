package org.llmplatform.inference.http;

import io.smallrye.mutiny.Multi;

/**
 * A response body produced piece by piece (SSE events) and written to the client as it comes, at the
 * pace the client reads: a producer that is told the client's buffer is full waits for
 * {@link Sink#whenWritable}. Writing straight to the connection this way costs a relayed chunk one
 * write, where a reactive stream of items costs a subscription round per item.
 */
public interface StreamedBody {

    /** Starts producing into {@code sink}, which the producer then ends or fails exactly once. */
    void writeTo(Sink sink);

    /** The body of the SSE events of {@code events}, each a complete {@code data: …\n\n} block. */
    static StreamedBody of(Multi<String> events) {
        return new MultiBody(events);
    }

    /**
     * This body, with {@code listener} told once how it ended: {@code failure} when it failed,
     * {@code cancelled} when the client left before the end.
     */
    default StreamedBody whenFinished(FinishListener listener) {
        return new FinishReportingBody(this, listener);
    }

    /** Where a body goes: the client's connection. */
    interface Sink {

        /** Writes {@code piece}; false when the client's buffer is full and the producer should wait. */
        boolean write(byte[] piece);

        /** Runs {@code resume} once the client's buffer has room again. */
        void whenWritable(Runnable resume);

        /** Runs {@code cancel} if the client goes away before the body ended (every one registered, in order). */
        void whenClosed(Runnable cancel);

        void end();

        void fail(Throwable failure);
    }

    @FunctionalInterface
    interface FinishListener {
        void finished(Throwable failure, boolean cancelled);
    }
}
