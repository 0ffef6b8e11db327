package org.llmplatform.automation;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A real webhook receiver on 127.0.0.1 (the JDK's HTTP server). It records every request and checks
 * signatures the way receivers do: {@code X-Svc-Signature} as GitHub-style receivers check theirs, and
 * {@code webhook-signature} as the Standard Webhooks libraries do, both with constant-time comparison.
 */
public final class TestReceiver implements AutoCloseable {

    /** What the receiver answers: status, headers, body, and how long it stalls first. */
    public record Answer(int status, Map<String, String> headers, String body, long delayMillis) {
        public static Answer status(int status) {
            return new Answer(status, Map.of(), "", 0);
        }
    }

    /** One received request. */
    public record Received(String path, Map<String, List<String>> headers, byte[] body) {
        public String header(String name) {
            return headers.entrySet().stream().filter(entry -> entry.getKey().equalsIgnoreCase(name))
                    .map(entry -> entry.getValue().get(0)).findFirst().orElse(null);
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile Function<Integer, Answer> answers = attempt -> Answer.status(200);

    public TestReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    /** The answer to the n-th request (from 1). */
    public TestReceiver answering(Function<Integer, Answer> answers) {
        this.answers = answers;
        return this;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public List<Received> received() {
        return received;
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        received.add(new Received(exchange.getRequestURI().getPath(), Map.copyOf(exchange.getRequestHeaders()), body));
        Answer answer = answers.apply(received.size());
        if (answer.delayMillis() > 0) {
            try {
                Thread.sleep(answer.delayMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        answer.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        byte[] reply = answer.body().getBytes(StandardCharsets.UTF_8);
        try {
            exchange.sendResponseHeaders(answer.status(), reply.length == 0 ? -1 : reply.length);
            if (reply.length > 0) {
                exchange.getResponseBody().write(reply);
            }
        } catch (IOException clientGone) {
            // the sender gave up (timeout test)
        } finally {
            exchange.close();
        }
    }

    /** A GitHub-style check of {@code X-Svc-Signature}: Base64 HMAC-SHA256 of the raw body. */
    public static boolean svcSignatureValid(Received request, String secret) {
        String given = request.header("X-Svc-Signature");
        return given != null && MessageDigest.isEqual(Base64.getDecoder().decode(given),
                hmac(secret.getBytes(StandardCharsets.UTF_8), request.body()));
    }

    /** The Standard Webhooks check: some {@code v1,} entry signs {@code id.timestamp.body}, timestamp within 5 minutes. */
    public static boolean standardSignatureValid(Received request, String secret) {
        String id = request.header("webhook-id");
        String timestamp = request.header("webhook-timestamp");
        String signatures = request.header("webhook-signature");
        if (id == null || timestamp == null || signatures == null
                || Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(timestamp)) > 300) {
            return false;
        }
        byte[] key = secret.startsWith("whsec_") ? Base64.getDecoder().decode(secret.substring(6)) : secret.getBytes(StandardCharsets.UTF_8);
        byte[] prefix = (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
        byte[] content = new byte[prefix.length + request.body().length];
        System.arraycopy(prefix, 0, content, 0, prefix.length);
        System.arraycopy(request.body(), 0, content, prefix.length, request.body().length);
        byte[] expected = hmac(key, content);
        for (String entry : signatures.split(" ")) {
            if (entry.startsWith("v1,") && MessageDigest.isEqual(Base64.getDecoder().decode(entry.substring(3)), expected)) {
                return true;
            }
        }
        return false;
    }

    private static byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
