package org.llmplatform.inference.http;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

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
        BiConsumer<Throwable, Boolean> report = (failure, cancelled) -> {
            if (finished.compareAndSet(false, true)) {
                listener.finished(failure, cancelled);
            }
        };
        sink.whenClosed(() -> report.accept(null, true));
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
                report.accept(null, false);
                sink.end();
            }

            @Override
            public void fail(Throwable failure) {
                report.accept(failure, false);
                sink.fail(failure);
            }
        });
    }
}
