package org.llmplatform.training.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import org.llmplatform.model.errors.OpenAiError;
import org.llmplatform.support.forward.HttpForwarder;
import org.llmplatform.training.config.TrainingConfig;

/**
 * ART samples through the base URL it trains with ({@code base_url=<training host>/v1}, docs/training-service.md#one-base-url), so
 * this service answers {@code /v1/chat/completions} and {@code /v1/models} by forwarding them to the
 * inference-gateway as they came: the gateway alone implements the chat API and decides authentication,
 * validation, project attribution ({@code Compat-Project}) and limits, so every answer, error or stream, is the
 * gateway's own, status, headers and bytes. Bodies flow both ways with back-pressure, so a stream is relayed
 * chunk by chunk as the gateway writes it. These are Vert.x routes ahead of the JAX-RS resources: this
 * service's authentication filter never sees them, and a wrong key gets the gateway's 401, not ours.
 */
@ApplicationScoped
public class InferenceForwarding {

    /** Every method, so that a wrong one gets the gateway's answer too. */
    private static final String FORWARDED_PATHS = "/v1/(chat/completions/?|models(/.*)?)";

    private final TrainingConfig.Inference gateway;
    private final ObjectMapper json;

    public InferenceForwarding(TrainingConfig config, ObjectMapper json) {
        this.gateway = config.inference();
        this.json = json;
    }

    void register(@Observes Router router, Vertx vertx) {
        HttpForwarder forwarder = new HttpForwarder(
                vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) gateway.connectTimeout().toMillis())),
                gateway.url(), this::unreachableBody);
        router.routeWithRegex(FORWARDED_PATHS).handler(context -> forwarder.forward(context.request()));
    }

    /** OpenAI's clients show the error body, so it says what failed (a 502: they retry it, and a restarting gateway comes back). */
    private String unreachableBody(String message) {
        OpenAiError error = new OpenAiError(message + "; chat completions and models are served by the inference gateway",
                "ServiceUnavailableError", null, "inference_gateway_unavailable");
        try {
            return json.writeValueAsString(Map.of("error", error));
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
