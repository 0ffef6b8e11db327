package org.llmplatform.support.error;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Answers a path that no endpoint serves with a JSON 404 instead of the default HTML page. */
@ApplicationScoped
public class UnknownRouteHandler {

    private final ErrorFormat format;
    private final ObjectMapper json;

    public UnknownRouteHandler(ErrorFormat format, ObjectMapper json) {
        this.format = format;
        this.json = json;
    }

    void register(@Observes Router router) {
        router.route().order(Integer.MAX_VALUE).handler(context -> {
            String body;
            try {
                body = json.writeValueAsString(format.unknownRouteBody(context.request().method().name(), context.request().path()));
            } catch (JsonProcessingException impossible) {
                body = "{\"detail\":\"Not Found\"}";
            }
            context.response().setStatusCode(404).putHeader("Content-Type", "application/json").end(body);
        });
    }
}
