package org.llmplatform.console.routing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Two real HTTP servers standing in for the tracing and training services: each answers with its name and
 * what it received; a stream path answers two JSON lines in two writes. The inference and automation
 * services' URLs point at ports where nothing listens, and so does the first of the training-service's two replicas.
 */
public class EchoUpstreams implements QuarkusTestResourceLifecycleManager {

    private Vertx vertx;

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        try {
            return Map.of("console.upstreams.tracing.url", "http://localhost:" + listen(echo("tracing")),
                    "console.upstreams.inference.url", "http://localhost:" + unusedPort(),
                    // Two replicas of the training-service, the first of them down.
                    "console.upstreams.training.url", "http://localhost:" + unusedPort() + ",http://localhost:" + listen(echo("training")),
                    "console.upstreams.automation.url", "http://localhost:" + unusedPort());
        } catch (Exception e) {
            throw new IllegalStateException("the stand-in upstreams did not start", e);
        }
    }

    private HttpServer echo(String service) {
        return vertx.createHttpServer().requestHandler(request -> {
            if (request.path().endsWith("/stream_query")) {
                request.response().setChunked(true).putHeader("Content-Type", "application/jsonl")
                        .write(new JsonObject().put("service", service).put("n", 1).encode() + "\n");
                vertx.setTimer(50, tick -> request.response().end(new JsonObject().put("n", 2).encode() + "\n"));
                return;
            }
            request.body().onSuccess(body -> request.response().setStatusCode(201).putHeader("Content-Type", "application/json")
                    .end(new JsonObject().put("service", service).put("method", request.method().name())
                            .put("uri", request.uri()).put("authorization", request.getHeader("Authorization"))
                            .put("body", body.toString()).encode()));
        });
    }

    private int unusedPort() throws Exception {
        HttpServer closed = vertx.createHttpServer().requestHandler(request -> request.response().end());
        int port = listen(closed);
        closed.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return port;
    }

    private static int listen(HttpServer server) throws Exception {
        return server.listen(0).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
    }

    @Override
    public void stop() {
        vertx.close();
    }
}
