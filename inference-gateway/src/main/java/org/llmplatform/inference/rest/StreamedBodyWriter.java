package org.llmplatform.inference.rest;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.Provider;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveResourceInfo;
import org.jboss.resteasy.reactive.server.spi.ServerHttpResponse;
import org.jboss.resteasy.reactive.server.spi.ServerMessageBodyWriter;
import org.jboss.resteasy.reactive.server.spi.ServerRequestContext;
import org.llmplatform.inference.service.StreamedBody;

/**
 * Writes a {@link StreamedBody} onto the connection as it is produced (chunked), with the status and
 * headers of the response it is the entity of. The request stays suspended until the body ended; a
 * body that fails before its first byte is answered through the exception mappers, one that fails
 * later can only cut the connection.
 */
@Provider
public class StreamedBodyWriter implements ServerMessageBodyWriter<StreamedBody> {

    private static final Logger LOG = Logger.getLogger(StreamedBodyWriter.class);

    @Override
    public boolean isWriteable(Class<?> type, Type genericType, ResteasyReactiveResourceInfo target, MediaType mediaType) {
        return StreamedBody.class.isAssignableFrom(type);
    }

    @Override
    public boolean isWriteable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return StreamedBody.class.isAssignableFrom(type);
    }

    @Override
    public void writeResponse(StreamedBody body, Type genericType, ServerRequestContext context) {
        ResteasyReactiveRequestContext request = (ResteasyReactiveRequestContext) context;
        request.suspend();
        ServerHttpResponse response = context.serverResponse();
        response.setChunked(true);
        body.writeTo(new ResponseSink(request, response));
    }

    /** Only the reactive path above writes these bodies. */
    @Override
    public void writeTo(StreamedBody body, Class<?> type, Type genericType, Annotation[] annotations,
            MediaType mediaType, MultivaluedMap<String, Object> headers, OutputStream out) {
        throw new UnsupportedOperationException("a streamed body is written asynchronously");
    }

    private static final class ResponseSink implements StreamedBody.Sink {
        private final ResteasyReactiveRequestContext request;
        private final ServerHttpResponse response;
        private final List<Runnable> onClose = new CopyOnWriteArrayList<>();

        ResponseSink(ResteasyReactiveRequestContext request, ServerHttpResponse response) {
            this.request = request;
            this.response = response;
            response.addCloseHandler(() -> onClose.forEach(Runnable::run));
        }

        @Override
        public boolean write(byte[] piece) {
            response.write(piece, failure -> {
                if (failure != null) {
                    LOG.debugf("A streamed reply could not be written: %s", failure.getMessage());
                }
            });
            return !response.isWriteQueueFull();
        }

        @Override
        public void whenWritable(Runnable resume) {
            response.addDrainHandler(resume);
        }

        @Override
        public void whenClosed(Runnable cancel) {
            onClose.add(cancel);
        }

        @Override
        public void end() {
            response.end();
            request.resume();
        }

        @Override
        public void fail(Throwable failure) {
            if (response.headWritten()) {
                LOG.errorf(failure, "A streamed reply failed after it began; closing the connection");
                response.reset();
                request.resume();
            } else {
                request.resume(failure);
            }
        }
    }
}
