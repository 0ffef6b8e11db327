package org.llmplatform.support.forward;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Real HTTP through a Vert.x server that forwards to a real upstream Vert.x server. */
class HttpForwarderTest {

    private final HttpClient caller = HttpClient.newHttpClient();
    private Vertx vertx;
    private Consumer<HttpServerRequest> upstreamHandler;
    private URI upstream;
    private URI proxy;

    @BeforeEach
    void startServers() throws Exception {
        vertx = Vertx.vertx();
        HttpServer upstreamServer = vertx.createHttpServer().requestHandler(request -> upstreamHandler.accept(request));
        upstream = URI.create("http://localhost:" + listen(upstreamServer) + "/base");
        HttpForwarder forwarder = new HttpForwarder(vertx.createHttpClient(), upstream,
                message -> new JsonObject().put("reason", message).encode());
        HttpServer proxyServer = vertx.createHttpServer().requestHandler(forwarder::forward);
        proxy = URI.create("http://localhost:" + listen(proxyServer));
    }

    @AfterEach
    void stopServers() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void methodPathQueryHeadersAndBodyReachTheUpstreamAndItsStatusAndHeadersComeBack() throws Exception {
        upstreamHandler = request -> request.body().onSuccess(body -> request.response().setStatusCode(418)
                .putHeader("Content-Type", "application/json").putHeader("X-Upstream", "yes")
                .end(new JsonObject().put("method", request.method().name()).put("uri", request.uri())
                        .put("authorization", request.getHeader("Authorization"))
                        .put("forwardedHost", request.getHeader("X-Forwarded-Host"))
                        .put("host", request.getHeader("Host")).put("body", body.toString()).encode()));

        HttpResponse<String> response = caller.send(HttpRequest.newBuilder(proxy.resolve("/calls/stream_query?x=1&y=%20"))
                .header("Authorization", "Bearer key-1").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"project_id\":\"a/b\"}")).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(418, response.statusCode());
        assertEquals("yes", response.headers().firstValue("X-Upstream").orElseThrow());
        JsonObject seen = new JsonObject(response.body());
        assertEquals("POST", seen.getString("method"));
        assertEquals("/base/calls/stream_query?x=1&y=%20", seen.getString("uri"));
        assertEquals("Bearer key-1", seen.getString("authorization"));
        assertEquals("{\"project_id\":\"a/b\"}", seen.getString("body"));
        assertEquals(proxy.getAuthority(), seen.getString("forwardedHost"));
        assertEquals(upstream.getAuthority(), seen.getString("host"));
    }

    @Test
    void aNoContentAnswerComesBackWithoutABody() throws Exception {
        upstreamHandler = request -> request.response().setStatusCode(204).end();

        HttpResponse<String> response = caller.send(HttpRequest.newBuilder(proxy.resolve("/admin/api-keys/k1")).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(204, response.statusCode());
        assertEquals("", response.body());
        assertTrue(response.headers().firstValue("Transfer-Encoding").isEmpty());
    }

    @Test
    void aBodylessGetIsForwardedWithoutABody() throws Exception {
        upstreamHandler = request -> request.body().onSuccess(body -> request.response()
                .end(request.method() + " " + body.length() + " " + request.getHeader("Transfer-Encoding")));

        HttpResponse<String> response = caller.send(HttpRequest.newBuilder(proxy.resolve("/server_info")).GET().build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals("GET 0 null", response.body());
    }

    @Test
    void aStreamedAnswerArrivesLineByLineWhileTheUpstreamIsStillWriting() throws Exception {
        CompletableFuture<Void> firstLineSeenByCaller = new CompletableFuture<>();
        upstreamHandler = request -> {
            request.response().setChunked(true).putHeader("Content-Type", "application/jsonl").write("{\"n\":1}\n");
            // The second line is written only once the caller has read the first through the proxy: a proxy
            // that waited for the whole answer would never deliver it, and the test would time out.
            firstLineSeenByCaller.whenComplete((ignored, error) -> vertx.runOnContext(
                    tick -> request.response().end("{\"n\":2}\n")));
        };

        HttpResponse<java.io.InputStream> response = caller.send(HttpRequest.newBuilder(proxy.resolve("/calls/stream_query"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            assertEquals("application/jsonl", response.headers().firstValue("Content-Type").orElseThrow());
            assertEquals("{\"n\":1}", lines.readLine());
            firstLineSeenByCaller.complete(null);
            assertEquals("{\"n\":2}", lines.readLine());
            assertNull(lines.readLine());
        }
    }

    @Test
    void anUpstreamThatBreaksOffMidStreamBreaksTheCallersStreamToo() throws Exception {
        upstreamHandler = request -> {
            request.response().setChunked(true).write("{\"n\":1}\n");
            vertx.setTimer(50, tick -> request.connection().close());
        };

        HttpResponse<java.io.InputStream> response = caller.send(HttpRequest.newBuilder(proxy.resolve("/calls/stream_query"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofInputStream());
        try (java.io.InputStream body = response.body()) {
            assertThrows(java.io.IOException.class, body::readAllBytes);
        }
    }

    @Test
    void aLargeBodyTravelsWhole() throws Exception {
        byte[] large = new byte[8 * 1024 * 1024];
        new Random(7).nextBytes(large);
        upstreamHandler = request -> request.body().onSuccess(body -> request.response().end(Buffer.buffer(DigestUtils.sha256Hex(body.getBytes()))
                .appendString(" " + body.length())));

        HttpResponse<String> response = caller.send(HttpRequest.newBuilder(proxy.resolve("/file/create"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(large)).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(DigestUtils.sha256Hex(large) + " " + large.length, response.body());
    }

    @Test
    void anUnreachableUpstreamAnswers502WithTheApisErrorBody() throws Exception {
        HttpServer closedServer = vertx.createHttpServer().requestHandler(request -> request.response().end());
        int port = listen(closedServer);
        closedServer.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        HttpForwarder forwarder = new HttpForwarder(vertx.createHttpClient(), URI.create("http://localhost:" + port),
                message -> new JsonObject().put("reason", message).encode());
        HttpServer front = vertx.createHttpServer().requestHandler(forwarder::forward);
        URI frontUri = URI.create("http://localhost:" + listen(front));

        HttpResponse<String> response = caller.send(HttpRequest.newBuilder(frontUri.resolve("/call/read"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(502, response.statusCode());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(new JsonObject(response.body()).getString("reason").contains("did not answer"), response.body());
    }

    @Test
    void requestsTakeTheReplicasInTurn() throws Exception {
        URI front = frontOf(List.of(namedUpstream("a"), namedUpstream("b")));

        Map<String, Long> answeredBy = new java.util.TreeMap<>();
        for (int i = 0; i < 6; i++) {
            answeredBy.merge(caller.send(HttpRequest.newBuilder(front.resolve("/calls/stream_query"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString()).body(), 1L, Long::sum);
        }

        assertEquals(Map.of("a", 3L, "b", 3L), answeredBy);
    }

    @Test
    void aReplicaThatRefusesTheConnectionCostsNoRequestNotEvenAPost() throws Exception {
        URI front = frontOf(List.of(closedPort(), namedUpstream("b")));

        for (int i = 0; i < 4; i++) {
            HttpResponse<String> response = caller.send(HttpRequest.newBuilder(front.resolve("/call/start"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            assertEquals("b", response.body());
        }
    }

    @Test
    void aGetWhoseReplicaDiesBeforeAnsweringIsSentToTheNextButAPostIsNot() throws Exception {
        HttpServer dying = vertx.createHttpServer().requestHandler(request -> request.connection().close());
        URI front = frontOf(List.of(URI.create("http://localhost:" + listen(dying)), namedUpstream("b")));

        for (int i = 0; i < 4; i++) {
            HttpResponse<String> read = caller.send(HttpRequest.newBuilder(front.resolve("/calls/" + i)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, read.statusCode(), read.body());
            assertEquals("b", read.body());
        }
        int posts502 = 0;
        for (int i = 0; i < 4; i++) {
            // The dying replica was passed over for a second; wait that out so that the POST reaches it in its turn.
            Thread.sleep(1100);
            HttpResponse<String> write = caller.send(HttpRequest.newBuilder(front.resolve("/call/start")).timeout(java.time.Duration.ofSeconds(20))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            posts502 += write.statusCode() == 502 ? 1 : 0;
        }
        assertTrue(posts502 > 0, "a POST the replica may have acted on is not sent again");
    }

    @Test
    void anUpstreamThatBreaksOffBeforeAnsweringGivesThe502AtOnceOverHttp2Too() throws Exception {
        HttpServer dying = vertx.createHttpServer().requestHandler(request -> request.connection().close());
        URI front = frontOf(List.of(URI.create("http://localhost:" + listen(dying))));

        // The JDK's client upgrades to HTTP/2 (h2c), whose requests are read once they end: the 502 must not read them again.
        for (HttpRequest.Builder request : List.of(HttpRequest.newBuilder(front.resolve("/call/read")).GET(),
                HttpRequest.newBuilder(front.resolve("/call/start")).POST(HttpRequest.BodyPublishers.ofString("{}")))) {
            HttpResponse<String> response = caller.send(request.timeout(java.time.Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(502, response.statusCode(), response.body());
            assertTrue(new JsonObject(response.body()).getString("reason").contains("did not answer"), response.body());
        }
    }

    @Test
    void replicasOfOneUpstreamMayNotDifferInPath() {
        assertThrows(IllegalArgumentException.class, () -> new HttpForwarder(vertx.createHttpClient(),
                List.of(URI.create("http://localhost:1/a"), URI.create("http://localhost:2/b")), message -> message));
    }

    /** An upstream that answers every request with its name. */
    private URI namedUpstream(String name) throws Exception {
        HttpServer server = vertx.createHttpServer().requestHandler(request -> request.body()
                .onSuccess(body -> request.response().end(name)));
        return URI.create("http://localhost:" + listen(server));
    }

    private URI closedPort() throws Exception {
        HttpServer closed = vertx.createHttpServer().requestHandler(request -> request.response().end());
        int port = listen(closed);
        closed.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return URI.create("http://localhost:" + port);
    }

    private URI frontOf(List<URI> replicas) throws Exception {
        HttpForwarder forwarder = new HttpForwarder(vertx.createHttpClient(), replicas,
                message -> new JsonObject().put("reason", message).encode());
        return URI.create("http://localhost:" + listen(vertx.createHttpServer().requestHandler(forwarder::forward)));
    }

    private static int listen(HttpServer server) throws Exception {
        return server.listen(0).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
    }
}
