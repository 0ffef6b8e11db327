package org.llmplatform.support.error;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Answers what goes wrong outside any resource in the service's JSON error shape: a request URI that is
 * malformed or too long, headers that are too large, any failure of a Vert.x route (say, a body over the
 * size limit), which Vert.x and Quarkus would answer with an empty body, and a path that no endpoint
 * serves, which they would answer with an HTML page.
 *
 * <p>The limits here sit below the HTTP decoder's ({@code quarkus.http.limits.max-initial-line-length} and
 * {@code max-header-size}, raised in service-support's defaults), so that what exceeds them still reaches
 * the router and gets a body. Quarkus' own URI check (an empty 400) is switched off for the same reason,
 * by {@link UriValidation}; the check here is the same {@link URI} parse.
 */
@ApplicationScoped
public class HttpLayerErrors {

    /** Longer request URIs get a 414; browsers and SDKs stay far below. */
    static final int MAX_URI_LENGTH = 16 * 1024;
    /** Larger header sections get a 431. */
    static final int MAX_HEADERS_SIZE = 16 * 1024;

    private static final Logger LOG = Logger.getLogger(HttpLayerErrors.class);

    private final ErrorFormat format;
    private final ObjectMapper json;

    public HttpLayerErrors(ErrorFormat format, ObjectMapper json) {
        this.format = format;
        this.json = json;
    }

    void register(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::rejectMalformed);
        router.route().order(Integer.MIN_VALUE).failureHandler(this::answerFailure);
        router.route().order(Integer.MAX_VALUE).handler(context -> respond(context, 404,
                format.unknownRouteBody(context.request().method().name(), context.request().path())));
    }

    private void rejectMalformed(RoutingContext context) {
        HttpServerRequest request = context.request();
        String uri = request.uri();
        if (uri.length() > MAX_URI_LENGTH) {
            end(context, 414, "Request URI too long: " + uri.length() + " characters, at most " + MAX_URI_LENGTH);
            return;
        }
        try {
            new URI(uri);
        } catch (URISyntaxException malformed) {
            end(context, 400, "Malformed request URI: " + malformed.getReason() + " at index " + malformed.getIndex());
            return;
        }
        if (uri.contains("%00")) {
            // No identifier or value of ours holds a NUL, and the database refuses to store one.
            end(context, 400, "Malformed request URI: it holds a NUL character (%00)");
            return;
        }
        int headersSize = 0;
        for (Map.Entry<String, String> header : request.headers()) {
            headersSize += header.getKey().length() + header.getValue().length() + 4;
        }
        if (headersSize > MAX_HEADERS_SIZE) {
            end(context, 431, "Request headers too large: " + headersSize + " bytes, at most " + MAX_HEADERS_SIZE);
            return;
        }
        context.next();
    }

    private void answerFailure(RoutingContext context) {
        if (context.response().headWritten()) {
            context.next();
            return;
        }
        int status = context.failure() instanceof HttpException http ? http.getStatusCode() : context.statusCode();
        if (status < 400) {
            status = 500;
        }
        if (status >= 500) {
            LOG.error("Request failed", context.failure());
        }
        String message = status >= 500 ? "Internal server error" : HttpResponseStatus.valueOf(status).reasonPhrase();
        end(context, status, message);
    }

    private void end(RoutingContext context, int status, String message) {
        respond(context, status, format.errorBody(status, message));
    }

    private void respond(RoutingContext context, int status, Object body) {
        String text;
        try {
            text = json.writeValueAsString(body);
        } catch (JsonProcessingException impossible) {
            text = "{\"detail\":\"" + HttpResponseStatus.valueOf(status).reasonPhrase() + "\"}";
        }
        context.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(text);
    }
}
