package org.llmplatform.inference.service;

import java.util.concurrent.atomic.AtomicBoolean;

/** A {@link StreamedBody} that tells a listener how it ended, once, whichever way it ended. */
final class FinishReportingBody implements StreamedBody {

    private final StreamedBody body;
    private final FinishListener listener;

    FinishReportingBody(StreamedBody body, FinishListener listener) {
        this.body = body;
        this.listener = listener;
    }

    @Override
    public void writeTo(Sink sink) {
        AtomicBoolean finished = new AtomicBoolean();
        sink.whenClosed(() -> {
            if (finished.compareAndSet(false, true)) {
                listener.finished(null, true);
            }
        });
        body.writeTo(new Sink() {
            @Override
            public boolean write(byte[] piece) {
                return sink.write(piece);
            }

            @Override
            public void whenWritable(Runnable resume) {
                sink.whenWritable(resume);
            }

            @Override
            public void whenClosed(Runnable cancel) {
                sink.whenClosed(cancel);
            }

            @Override
            public void end() {
                if (finished.compareAndSet(false, true)) {
                    listener.finished(null, false);
                }
                sink.end();
            }

            @Override
            public void fail(Throwable failure) {
                if (finished.compareAndSet(false, true)) {
                    listener.finished(failure, false);
                }
                sink.fail(failure);
            }
        });
    }
}
