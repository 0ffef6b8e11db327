package org.llmplatform.console.routing;

import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.jboss.logging.Logger;
import org.llmplatform.console.config.ConsoleConfig;
import org.llmplatform.support.forward.HttpForwarder;

/**
 * Puts every API of the platform on the console's origin: a request whose path starts with a configured
 * prefix is relayed to that service as it is (the caller's key included) before the console's own pages
 * are looked at; any other path falls through to the pages.
 */
@ApplicationScoped
public class ApiRouter {

    private static final Logger LOG = Logger.getLogger(ApiRouter.class);

    /** Before Quarkus's static resources and everything else. */
    static final int ORDER = -1000;

    private final ApiRoutes routes;
    private final Map<ApiRoutes.Route, HttpForwarder> forwarders = new HashMap<>();

    public ApiRouter(ConsoleConfig config, Vertx vertx) {
        this.routes = ApiRoutes.of(config.upstreams());
        var client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) config.connectTimeout().toMillis()).setKeepAlive(true).setMaxPoolSize(64));
        for (ApiRoutes.Route route : routes.all()) {
            forwarders.put(route, new HttpForwarder(client, route.urls(), failureBody(route.errorBody())));
        }
    }

    void register(@Observes Router router) {
        router.route().order(ORDER).handler(context -> routes.find(context.request().path()).ifPresentOrElse(
                route -> forwarders.get(route).forward(context.request()),
                context::next));
    }

    void logRoutes(@Observes StartupEvent started, ConsoleConfig config) {
        config.upstreams().forEach((service, upstream) ->
                LOG.infof("%s -> %s for %s", service, upstream.url(), upstream.prefixes()));
    }

    private static Function<String, String> failureBody(ConsoleConfig.ErrorBody shape) {
        return switch (shape) {
            case DETAIL -> message -> new JsonObject().put("detail", message).encode();
            case REASON -> message -> new JsonObject().put("reason", message).encode();
            case OPENAI -> message -> new JsonObject().put("error", new JsonObject().put("message", message)
                    .put("type", "bad_gateway").putNull("param").putNull("code")).encode();
        };
    }
}
