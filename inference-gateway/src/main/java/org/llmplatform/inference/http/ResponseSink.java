package org.llmplatform.inference.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Writes a {@link StreamedBody} onto the connection as it is produced (chunked), at the pace the client reads. A body
 * that fails before its first byte is answered by {@code failedBeforeHead}, as an ordinary error; one that fails
 * later can only cut the connection.
 */
public final class ResponseSink implements StreamedBody.Sink {

    private static final Logger LOG = Logger.getLogger(ResponseSink.class);

    private final HttpServerResponse response;
    private final Runnable ended;
    private final Consumer<Throwable> failedBeforeHead;
    private final List<Runnable> onClose = new CopyOnWriteArrayList<>();

    /** {@code ended} runs once the response ended or was cut. */
    public ResponseSink(HttpServerResponse response, Runnable ended, Consumer<Throwable> failedBeforeHead) {
        this.response = response;
        this.ended = ended;
        this.failedBeforeHead = failedBeforeHead;
        response.setChunked(true);
        response.closeHandler(closed -> onClose.forEach(Runnable::run));
    }

    @Override
    public boolean write(byte[] piece) {
        response.write(Buffer.buffer(piece), written -> {
            if (written.failed()) {
                LOG.debugf("A streamed reply could not be written: %s", written.cause().getMessage());
            }
        });
        return !response.writeQueueFull();
    }

    @Override
    public void whenWritable(Runnable resume) {
        response.drainHandler(drained -> resume.run());
    }

    @Override
    public void whenClosed(Runnable cancel) {
        onClose.add(cancel);
    }

    @Override
    public void end() {
        response.end();
        ended.run();
    }

    @Override
    public void fail(Throwable failure) {
        if (response.headWritten()) {
            LOG.errorf(failure, "A streamed reply failed after it began; closing the connection");
            response.reset();
            ended.run();
        } else {
            failedBeforeHead.accept(failure);
        }
    }
}
