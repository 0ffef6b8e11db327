package org.llmplatform.inference.upstream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.http.OpenAiException;
import org.llmplatform.model.errors.OpenAiError;

/**
 * Sends a chat completion to the upstream OpenAI-compatible server of its model. Connect errors, 429
 * and 5xx are retried and then handed to the fallbacks, but only before anything reached the client;
 * what fails after that is an in-band error event. Streams are relayed as they come by {@link SseRelay},
 * and usage is always requested upstream so every request is counted.
 */
@Singleton
public class UpstreamRouter {

    private static final Logger LOG = Logger.getLogger(UpstreamRouter.class);

    private final Vertx vertx;
    private final UpstreamCatalog catalog;
    private final ObjectMapper json;
    /** An answer passed on as its text is exactly one JSON value: its usage record carries that text as it is. */
    private final ObjectReader oneValue;
    private final Map<ClientKey, HttpClient> clients = new ConcurrentHashMap<>();
    private final Map<TemplateKey, RequestOptions> requestTemplates = new ConcurrentHashMap<>();

    public UpstreamRouter(Vertx vertx, UpstreamCatalog catalog, ObjectMapper json) {
        this.vertx = vertx;
        this.catalog = catalog;
        this.json = json;
        this.oneValue = json.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    public boolean serves(String model) {
        return catalog.find(model).isPresent();
    }

    /**
     * Forwards {@code body} to {@code api} of the upstream of {@code backend}, answering under the public name
     * {@code model}. The reply's body reports the usage it saw to {@code usage} before it ends.
     */
    public Uni<UpstreamReply> forward(ObjectNode body, String model, String backend, UpstreamApi api, String requestId,
            UsageSink usage) {
        boolean stream = body.path("stream").asBoolean(false);
        // a Responses stream has no usage chunk to add or drop: its usage is inside its last event
        boolean addsUsageChunk = stream && api != UpstreamApi.RESPONSES;
        boolean clientWantsUsage = !addsUsageChunk || body.path("stream_options").isObject()
                && body.path("stream_options").path("include_usage").asBoolean(true);
        if (addsUsageChunk) {
            ObjectNode options = body.path("stream_options").isObject()
                    ? (ObjectNode) body.get("stream_options") : body.putObject("stream_options");
            options.put("include_usage", true);
        }
        Payloads payloads = new Payloads(body);
        List<Target> targets = targets(backend);
        // Vert.x futures until the reply is known: each Mutiny stage would capture and restore the request's context
        return Uni.createFrom().completionStage(() -> attempt(targets, 0, api, payloads, requestId, usage)
                .compose(sent -> reply(sent, model, api, stream, clientWantsUsage, usage))
                .recover(failure -> Future.succeededFuture(failed(model, failure)))
                .toCompletionStage());
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

    private Future<Sent> attempt(List<Target> targets, int index, UpstreamApi api, Payloads payloads, String requestId,
            UsageSink usage) {
        Target target = targets.get(index);
        boolean last = index + 1 >= targets.size();
        long started = System.nanoTime();
        return send(target, api, payloads, requestId)
                .andThen(ignored -> usage.waited(System.nanoTime() - started))
                .transform(sent -> {
                    if (sent.succeeded()) {
                        HttpClientResponse response = sent.result();
                        if (!last && retryable(response.statusCode())) {
                            LOG.warnf("Upstream %s answered %d; trying again", target.id(), response.statusCode());
                            return response.body().transform(ignored -> attempt(targets, index + 1, api, payloads, requestId, usage));
                        }
                        return Future.succeededFuture(new Sent(response, target.upstreamModel()));
                    }
                    if (!last && connectError(sent.cause())) {
                        LOG.warnf("Upstream %s unreachable (%s); trying again", target.id(), sent.cause().getMessage());
                        return attempt(targets, index + 1, api, payloads, requestId, usage);
                    }
                    return Future.failedFuture(sent.cause());
                });
    }

    private Future<HttpClientResponse> send(Target target, UpstreamApi api, Payloads payloads, String requestId) {
        Buffer payload = payloads.forModel(target.upstreamModel());
        RequestOptions options = new RequestOptions(requestTemplates.computeIfAbsent(new TemplateKey(target.id(), api),
                        key -> requestTemplate(target, api)))
                .putHeader("X-Request-Id", requestId);
        return client(target).request(options).compose(request -> request.send(payload));
    }

    /** What every request to an upstream shares, its URL parsed once. */
    private static RequestOptions requestTemplate(Target target, UpstreamApi api) {
        RequestOptions template = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setAbsoluteURI(target.url(api))
                .setIdleTimeout(target.upstream().readTimeout().toMillis())
                .putHeader("Content-Type", "application/json");
        target.upstream().apiKey().ifPresent(key -> template.putHeader("Authorization", "Bearer " + key));
        return template;
    }

    /**
     * The client of the upstream for the calling event loop: a client opens its connections on the loop
     * that asks, so with one client per loop a connection and the requests it carries share a thread and
     * the relayed chunks of a stream never hop between loops.
     */
    private HttpClient client(Target target) {
        Thread loop = Context.isOnEventLoopThread() ? Thread.currentThread() : null;
        return clients.computeIfAbsent(new ClientKey(target.id(), loop), key -> vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) target.upstream().connectTimeout().toMillis())
                .setMaxPoolSize(256)
                .setKeepAlive(true)));
    }

    private Future<UpstreamReply> reply(Sent sent, String model, UpstreamApi api, boolean stream, boolean clientWantsUsage,
            UsageSink usage) {
        HttpClientResponse response = sent.response();
        int status = response.statusCode();
        boolean renamed = !model.equals(sent.upstreamModel());
        if (status >= 200 && status < 300 && stream) {
            // nothing is read until the relay is written to the client
            response.pause();
            return Future.succeededFuture(UpstreamReply.streamed(
                    new SseRelay(response, json, model, sent.upstreamModel(), api, clientWantsUsage, usage)));
        }
        long reading = System.nanoTime();
        return response.body().map(buffer -> {
            usage.waited(System.nanoTime() - reading);
            if (status >= 200 && status < 300) {
                return UpstreamReply.complete(200, completion(buffer, model, renamed, usage));
            }
            usage.failed();
            String error = retryable(status) ? errorJson(502, "The upstream server of model `" + model + "` answered " + status)
                    : upstreamError(buffer.toString(), status);
            return UpstreamReply.complete(retryable(status) ? 502 : status, error);
        });
    }

    /** The upstream's bytes as they are, unless the model must be renamed to our public id. */
    private String completion(Buffer body, String model, boolean renamed, UsageSink usage) {
        try {
            JsonNode completion = oneValue.readTree(body.getBytes());
            if (!(completion instanceof ObjectNode object)) {
                throw new JsonProcessingException("not a JSON object") {
                };
            }
            usage.count(completion);
            if (!renamed && model.equals(object.path("model").asText(model))) {
                return body.toString();
            }
            object.put("model", model);
            return json.writeValueAsString(completion);
        } catch (IOException e) {
            usage.failed();
            return errorJson(502, "The upstream server of model `" + model + "` sent an unreadable completion");
        }
    }

    private UpstreamReply failed(String model, Throwable failure) {
        boolean timedOut = failure instanceof TimeoutException || failure.getClass().getSimpleName().contains("Timeout")
                && !(failure instanceof ConnectException);
        int status = timedOut ? 504 : 502;
        String message = timedOut ? "The upstream server of model `" + model + "` did not answer in time"
                : "The upstream server of model `" + model + "` could not be reached: " + failure.getMessage();
        LOG.warn(message);
        return UpstreamReply.complete(status, errorJson(status, message));
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
        String upstreamModel() {
            return upstream.model().orElse(id);
        }

        String url(UpstreamApi api) {
            String url = upstream.url();
            int end = url.length();
            while (end > 0 && url.charAt(end - 1) == '/') {
                end--;
            }
            return url.substring(0, end) + api.path();
        }
    }

    private record TemplateKey(String upstream, UpstreamApi api) {
    }

    private record Sent(HttpClientResponse response, String upstreamModel) {
    }

    /** An upstream and the event loop its client serves ({@code null}: callers off the event loops). */
    private record ClientKey(String upstream, Thread loop) {
    }

    /** The request body serialised once per upstream model name (retries and fallbacks reuse it). */
    private final class Payloads {
        private final ObjectNode body;
        private final Map<String, Buffer> byModel = new HashMap<>(2);

        Payloads(ObjectNode body) {
            this.body = body;
        }

        synchronized Buffer forModel(String upstreamModel) {
            return byModel.computeIfAbsent(upstreamModel, name -> {
                body.put("model", name);
                try {
                    return Buffer.buffer(json.writeValueAsBytes(body));
                } catch (JsonProcessingException e) {
                    throw new IllegalStateException("a parsed request could not be serialised again", e);
                }
            });
        }
    }

    /** Where the relay reports the usage it saw, whether the request failed, and where its time went. */
    public interface UsageSink {
        /**
         * A non-streamed completion or Response, a stream's usage chunk or the Response of its last event: its
         * {@code id} and {@code usage}, as the upstream sent them.
         */
        void count(JsonNode completionOrUsageChunk);

        void failed();

        /** Time spent waiting on the upstream: its answer's headers, or a whole non-streamed body. */
        void waited(long nanos);

        /** Time spent turning one upstream event into ours. */
        void relayed(long nanos);
    }
}
