package org.llmplatform.inference.bench;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The fastest upstream we can make: a Vert.x server on its own event loop answering every chat
 * completion with canned vLLM bytes (a {@code chat.completion}, or a short SSE stream with the usage
 * chunk when asked), so what the benchmark measures is the gateway, not a model.
 */
public class BenchUpstream implements QuarkusTestResourceLifecycleManager {

    static final String MODEL = "bench-model";
    static final String URL_PROPERTY = "bench.upstream.url";

    private static final Buffer COMPLETION = Buffer.buffer("{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion\","
            + "\"created\":1,\"model\":\"" + MODEL + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
            + "\"content\":\"Hello there, how can I help you today?\"},\"logprobs\":null,\"finish_reason\":\"stop\","
            + "\"stop_reason\":null}],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":10,\"total_tokens\":22}}");
    private static final Buffer STREAM = stream(false);
    private static final Buffer STREAM_WITH_USAGE = stream(true);

    private Vertx vertx;

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        int port;
        try {
            port = vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true))
                    .requestHandler(request -> request.body().onSuccess(body -> {
                        if (body.toString().contains("\"stream\":true")) {
                            boolean usage = body.toString().contains("\"include_usage\":true");
                            request.response().putHeader("Content-Type", "text/event-stream")
                                    .end((usage ? STREAM_WITH_USAGE : STREAM).copy());
                        } else {
                            request.response().putHeader("Content-Type", "application/json").end(COMPLETION.copy());
                        }
                    }))
                    .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)
                    .actualPort();
        } catch (Exception e) {
            throw new IllegalStateException("the benchmark upstream did not start", e);
        }
        String url = "http://127.0.0.1:" + port + "/v1";
        System.setProperty(URL_PROPERTY, url);
        // The gateway's own usage-totals consumer (a database transaction per request, downstream of the
        // request path) would compete with the gateway for this machine's cores, so it is off here.
        return Map.of(
                "gateway.upstreams." + MODEL + ".url", url,
                "gateway.upstreams." + MODEL + ".retries", "0",
                "gateway.upstreams." + MODEL + ".connect-timeout", "60s",
                "gateway.limits.concurrent-requests-per-project", "100000",
                "mp.messaging.incoming.usage-totals.enabled", "false");
    }

    private static Buffer stream(boolean usage) {
        StringBuilder events = new StringBuilder();
        events.append(chunk("{\"role\":\"assistant\",\"content\":\"\"}", "null"));
        for (String piece : new String[] {"Hello", " there", ", how", " can", " I", " help?"}) {
            events.append(chunk("{\"content\":\"" + piece + "\"}", "null"));
        }
        events.append(chunk("{}", "\"stop\""));
        if (usage) {
            events.append("data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"")
                    .append(MODEL).append("\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":7,")
                    .append("\"total_tokens\":19}}\n\n");
        }
        events.append("data: [DONE]\n\n");
        return Buffer.buffer(events.toString());
    }

    private static String chunk(String delta, String finishReason) {
        return "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"" + MODEL
                + "\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"logprobs\":null,\"finish_reason\":"
                + finishReason + "}]}\n\n";
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
        }
    }
}
