package org.llmplatform.inference.http;

import io.vertx.core.http.HttpServerResponse;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.Provider;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveResourceInfo;
import org.jboss.resteasy.reactive.server.spi.ServerMessageBodyWriter;
import org.jboss.resteasy.reactive.server.spi.ServerRequestContext;

/**
 * Writes a {@link StreamedBody} entity with the status and headers of its response ({@link ResponseSink}). The
 * request stays suspended until the body ended; a body that fails before its first byte is answered through the
 * exception mappers.
 */
@Provider
public class StreamedBodyWriter implements ServerMessageBodyWriter<StreamedBody> {

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
        body.writeTo(new ResponseSink(request.serverRequest().unwrap(HttpServerResponse.class), request::resume,
                request::resume));
    }

    /** Only the reactive path above writes these bodies. */
    @Override
    public void writeTo(StreamedBody body, Class<?> type, Type genericType, Annotation[] annotations,
            MediaType mediaType, MultivaluedMap<String, Object> headers, OutputStream out) {
        throw new UnsupportedOperationException("a streamed body is written asynchronously");
    }
}
