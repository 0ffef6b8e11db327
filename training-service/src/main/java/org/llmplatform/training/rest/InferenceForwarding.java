package org.llmplatform.training.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.ext.web.Router;
import io.vertx.httpproxy.Body;
import io.vertx.httpproxy.HttpProxy;
import io.vertx.httpproxy.ProxyContext;
import io.vertx.httpproxy.ProxyInterceptor;
import io.vertx.httpproxy.ProxyOptions;
import io.vertx.httpproxy.ProxyResponse;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.util.Map;
import org.jboss.logging.Logger;
import org.llmplatform.model.errors.OpenAiError;
import org.llmplatform.training.config.TrainingConfig;

/**
 * ART samples through the base URL it trains with ({@code base_url=<training host>/v1}, training spec §1.2), so
 * this service answers {@code /v1/chat/completions} and {@code /v1/models} by forwarding them to the
 * inference-gateway as they came: the gateway alone implements the chat API and decides authentication,
 * validation, project attribution ({@code Compat-Project}) and limits, so every answer, error or stream, is the
 * gateway's own, status, headers and bytes. Bodies flow both ways with back-pressure, so a stream is relayed
 * chunk by chunk as the gateway writes it. These are Vert.x routes ahead of the JAX-RS resources: this
 * service's authentication filter never sees them, and a wrong key gets the gateway's 401, not ours.
 */
@ApplicationScoped
public class InferenceForwarding {

    private static final Logger LOG = Logger.getLogger(InferenceForwarding.class);
    /** Every method, so that a wrong one gets the gateway's answer too. */
    private static final String FORWARDED_PATHS = "/v1/(chat/completions/?|models(/.*)?)";

    private final TrainingConfig.Inference gateway;
    private final ObjectMapper json;

    public InferenceForwarding(TrainingConfig config, ObjectMapper json) {
        this.gateway = config.inference();
        this.json = json;
    }

    void register(@Observes Router router, Vertx vertx) {
        URI url = gateway.url();
        boolean tls = "https".equalsIgnoreCase(url.getScheme());
        int port = url.getPort() != -1 ? url.getPort() : tls ? 443 : 80;
        HttpProxy proxy = HttpProxy.reverseProxy(new ProxyOptions(), vertx.createHttpClient(new HttpClientOptions()
                        .setSsl(tls)
                        .setConnectTimeout((int) gateway.connectTimeout().toMillis())))
                .origin(port, url.getHost())
                .addInterceptor(new UnreachableGateway(url, unreachableBody(url)));
        router.routeWithRegex(FORWARDED_PATHS).handler(context -> proxy.handle(context.request()));
    }

    private String unreachableBody(URI url) {
        OpenAiError error = new OpenAiError("The inference gateway at " + url + " could not be reached; chat completions"
                + " and models are served by it", "ServiceUnavailableError", null, "inference_gateway_unavailable");
        try {
            return json.writeValueAsString(Map.of("error", error));
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /**
     * Without this the proxy answers an empty 502; OpenAI clients show the error body, so it says what failed
     * (a 503: the OpenAI clients retry it, and a gateway that is restarting comes back).
     */
    private record UnreachableGateway(URI url, String body) implements ProxyInterceptor {

        @Override
        public Future<ProxyResponse> handleProxyRequest(ProxyContext context) {
            return context.sendRequest().recover(failure -> {
                LOG.warnf("The inference gateway at %s could not be reached: %s", url, failure.getMessage());
                return Future.succeededFuture(context.request().release().response()
                        .setStatusCode(503)
                        .putHeader("Content-Type", "application/json")
                        .setBody(Body.body(Buffer.buffer(body))));
            });
        }
    }
}
