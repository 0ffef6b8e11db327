package org.llmplatform.inference.service.upstream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.core.http.HttpClient;
import io.vertx.mutiny.core.http.HttpClientResponse;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.service.OpenAiException;
import org.llmplatform.model.errors.OpenAiError;

/**
 * Sends a chat completion to the upstream OpenAI-compatible server of its model. Connect errors, 429
 * and 5xx are retried and then handed to the fallbacks, but only before anything reached the client;
 * what fails after that is an in-band error event. Streams are relayed chunk by chunk with the
 * upstream's back-pressure, and usage is always requested upstream so every request is counted.
 */
@ApplicationScoped
public class UpstreamRouter {

    private static final Logger LOG = Logger.getLogger(UpstreamRouter.class);
    private static final String DONE = "data: [DONE]\n\n";

    private final Vertx vertx;
    private final UpstreamCatalog catalog;
    private final ObjectMapper json;
    private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();

    public UpstreamRouter(Vertx vertx, UpstreamCatalog catalog, ObjectMapper json) {
        this.vertx = vertx;
        this.catalog = catalog;
        this.json = json;
    }

    public boolean serves(String model) {
        return catalog.find(model).isPresent();
    }

    /**
     * Forwards {@code body} for the public model {@code model}. The reply's body reports the usage
     * it saw to {@code usage} before it ends.
     */
    public Uni<UpstreamReply> forward(ObjectNode body, String model, String requestId, UsageSink usage) {
        boolean stream = body.path("stream").asBoolean(false);
        boolean clientWantsUsage = stream && body.path("stream_options").isObject()
                && body.path("stream_options").path("include_usage").asBoolean(true);
        return attempt(targets(model), 0, body, requestId)
                .map(response -> reply(response, model, stream, clientWantsUsage, usage))
                .onFailure().recoverWithItem(failure -> failed(model, failure));
    }

    private List<Target> targets(String model) {
        List<Target> targets = new ArrayList<>();
        GatewayConfig.Upstream primary = catalog.find(model).orElseThrow(() -> OpenAiException.modelNotFound(model));
        addAttempts(targets, model, primary);
        for (String fallback : primary.fallbacks().orElse(List.of())) {
            catalog.find(fallback).ifPresent(upstream -> addAttempts(targets, fallback, upstream));
        }
        return targets;
    }

    private static void addAttempts(List<Target> targets, String id, GatewayConfig.Upstream upstream) {
        for (int i = 0; i <= Math.max(0, upstream.retries()); i++) {
            targets.add(new Target(id, upstream));
        }
    }

    private Uni<HttpClientResponse> attempt(List<Target> targets, int index, ObjectNode body, String requestId) {
        Target target = targets.get(index);
        boolean last = index + 1 >= targets.size();
        return send(target, body, requestId)
                .flatMap(response -> {
                    if (!last && retryable(response.statusCode())) {
                        LOG.warnf("Upstream %s answered %d; trying again", target.id(), response.statusCode());
                        return response.body().flatMap(ignored -> attempt(targets, index + 1, body, requestId));
                    }
                    return Uni.createFrom().item(response);
                })
                .onFailure(failure -> !last && connectError(failure)).recoverWithUni(failure -> {
                    LOG.warnf("Upstream %s unreachable (%s); trying again", target.id(), failure.getMessage());
                    return attempt(targets, index + 1, body, requestId);
                });
    }

    private Uni<HttpClientResponse> send(Target target, ObjectNode body, String requestId) {
        ObjectNode payload = body.deepCopy();
        payload.put("model", target.upstream().model().orElse(target.id()));
        if (payload.path("stream").asBoolean(false)) {
            ObjectNode options = payload.path("stream_options").isObject()
                    ? (ObjectNode) payload.get("stream_options") : payload.putObject("stream_options");
            options.put("include_usage", true);
        }
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setAbsoluteURI(target.upstream().url().replaceAll("/+$", "") + "/chat/completions")
                .setIdleTimeout(target.upstream().readTimeout().toMillis())
                .putHeader("Content-Type", "application/json")
                .putHeader("X-Request-Id", requestId);
        target.upstream().apiKey().ifPresent(key -> options.putHeader("Authorization", "Bearer " + key));
        return client(target).request(options)
                .flatMap(request -> request.send(Buffer.buffer(payload.toString())));
    }

    private HttpClient client(Target target) {
        return clients.computeIfAbsent(target.id(), id -> vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) target.upstream().connectTimeout().toMillis())
                .setMaxPoolSize(256)
                .setKeepAlive(true)));
    }

    private UpstreamReply reply(HttpClientResponse response, String model, boolean stream, boolean clientWantsUsage,
            UsageSink usage) {
        int status = response.statusCode();
        if (status >= 200 && status < 300 && stream) {
            return new UpstreamReply(200, "text/event-stream", relay(response, model, clientWantsUsage, usage));
        }
        Multi<String> body = response.body().map(buffer -> {
            if (status >= 200 && status < 300) {
                return completion(buffer.toString(), model, usage);
            }
            usage.failed();
            return retryable(status) ? errorJson(502, "The upstream server of model `" + model + "` answered " + status)
                    : upstreamError(buffer.toString(), status);
        }).toMulti();
        int replyStatus = status >= 200 && status < 300 ? 200 : retryable(status) ? 502 : status;
        return new UpstreamReply(replyStatus, "application/json", body);
    }

    private String completion(String body, String model, UsageSink usage) {
        try {
            JsonNode completion = json.readTree(body);
            if (completion instanceof ObjectNode object) {
                object.put("model", model);
                usage.count(completion.path("usage"));
            }
            return json.writeValueAsString(completion);
        } catch (JsonProcessingException e) {
            usage.failed();
            return errorJson(502, "The upstream server of model `" + model + "` sent an unreadable completion");
        }
    }

    /** Relays SSE events as they come; an upstream stream that ends without [DONE] gets an in-band error. */
    private Multi<String> relay(HttpClientResponse response, String model, boolean clientWantsUsage, UsageSink usage) {
        SseEvents events = new SseEvents();
        boolean[] done = new boolean[1];
        Multi<String> relayed = response.toMulti()
                .onItem().transformToIterable(events::feed)
                .onItem().transformToIterable(payload -> {
                    if ("[DONE]".equals(payload)) {
                        done[0] = true;
                        return List.of(DONE);
                    }
                    return relayedEvent(payload, model, clientWantsUsage, usage);
                });
        return Multi.createBy().concatenating().streams(relayed, Multi.createFrom().deferred(() -> {
                    if (done[0]) {
                        return Multi.createFrom().empty();
                    }
                    usage.failed();
                    return Multi.createFrom().items(inBandError("The upstream stream of model `" + model
                            + "` ended before it was complete"), DONE);
                }))
                .onFailure().recoverWithMulti(failure -> {
                    usage.failed();
                    return Multi.createFrom().items(inBandError("The upstream stream of model `" + model
                            + "` failed: " + failure.getMessage()), DONE);
                });
    }

    private List<String> relayedEvent(String payload, String model, boolean clientWantsUsage, UsageSink usage) {
        try {
            JsonNode chunk = json.readTree(payload);
            if (chunk.has("error")) {
                usage.failed();
                return List.of("data: " + payload + "\n\n");
            }
            if (chunk.path("usage").isObject() && chunk.path("choices").isEmpty()) {
                usage.count(chunk.path("usage"));
                if (!clientWantsUsage) {
                    return List.of();
                }
            }
            if (chunk instanceof ObjectNode object && !model.equals(object.path("model").asText(model))) {
                object.put("model", model);
                return List.of("data: " + json.writeValueAsString(object) + "\n\n");
            }
            return List.of("data: " + payload + "\n\n");
        } catch (JsonProcessingException e) {
            usage.failed();
            return List.of(inBandError("The upstream stream of model `" + model + "` sent an unreadable chunk"));
        }
    }

    private UpstreamReply failed(String model, Throwable failure) {
        boolean timedOut = failure instanceof TimeoutException || failure.getClass().getSimpleName().contains("Timeout")
                && !(failure instanceof ConnectException);
        int status = timedOut ? 504 : 502;
        String message = timedOut ? "The upstream server of model `" + model + "` did not answer in time"
                : "The upstream server of model `" + model + "` could not be reached: " + failure.getMessage();
        LOG.warn(message);
        return new UpstreamReply(status, "application/json", Multi.createFrom().item(errorJson(status, message)));
    }

    /** Passes an upstream's own error body through when it is OpenAI-shaped, else wraps its text. */
    private String upstreamError(String body, int status) {
        try {
            JsonNode error = json.readTree(body);
            if (error != null && error.path("error").isObject()) {
                return body;
            }
        } catch (JsonProcessingException e) {
            // not JSON: wrapped below
        }
        return errorJson(status, body.isBlank() ? "The upstream server answered " + status : body);
    }

    private String errorJson(int status, String message) {
        return write(Map.of("error", new OpenAiError(message, status >= 500 ? "upstream_error" : "invalid_request_error",
                null, null)));
    }

    private String inBandError(String message) {
        return "data: " + write(Map.of("error", new OpenAiError(message, "upstream_error", null, null))) + "\n\n";
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean retryable(int status) {
        return status == 429 || status >= 500;
    }

    private static boolean connectError(Throwable failure) {
        return failure instanceof ConnectException || failure instanceof UnknownHostException;
    }

    private record Target(String id, GatewayConfig.Upstream upstream) {
    }

    /** Where the relay reports the usage it saw and whether the request failed. */
    public interface UsageSink {
        void count(JsonNode usage);

        void failed();
    }
}
