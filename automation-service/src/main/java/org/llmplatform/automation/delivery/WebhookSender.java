package org.llmplatform.automation.delivery;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.core.http.HttpClient;
import io.vertx.mutiny.core.http.HttpClientResponse;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.llmplatform.automation.config.AutomationConfig;
import org.llmplatform.automation.security.UnsafeUrl;
import org.llmplatform.automation.security.UrlGuard;

/**
 * POSTs a body to a webhook URL the SSRF guard accepts, connecting to the very address it checked (the
 * host still names the server for {@code Host} and TLS). Redirects are not followed; the whole exchange
 * is bounded by the request timeout and the body read is capped. Response header names come back in lower case.
 */
@ApplicationScoped
public class WebhookSender {

    static final int RESPONSE_CAPTURE_BYTES = 20 * 1024;
    private static final int CONNECTIONS_PER_ENDPOINT = 64;

    private final UrlGuard guard;
    private final HttpClient client;
    private final Duration requestTimeout;

    public WebhookSender(Vertx vertx, UrlGuard guard, AutomationConfig config) {
        this.guard = guard;
        this.requestTimeout = config.delivery().requestTimeout();
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) config.delivery().connectTimeout().toMillis())
                .setMaxPoolSize(CONNECTIONS_PER_ENDPOINT)
                .setVerifyHost(true)
                .setKeepAlive(true));
    }

    @PreDestroy
    void close() {
        client.closeAndAwait();
    }

    public Uni<SendResult> post(String url, byte[] body, Map<String, String> headers) {
        long started = System.nanoTime();
        // An address literal is checked right here; a name is resolved on a worker thread, as resolving blocks.
        return Uni.createFrom().item(() -> guard.checkLiteral(url))
                .chain(literal -> literal.isPresent() ? Uni.createFrom().item(literal.get())
                        : Uni.createFrom().item(() -> guard.check(url)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool()))
                .chain(target -> exchange(target, body, headers, started))
                .ifNoItem().after(requestTimeout).failWith(() -> new TimeoutException())
                .onFailure().recoverWithItem(failure -> failed(failure, started));
    }

    private Uni<SendResult> exchange(UrlGuard.Target target, byte[] body, Map<String, String> headers, long started) {
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setServer(SocketAddress.inetSocketAddress(new InetSocketAddress(target.address(), target.port())))
                .setHost(target.host())
                .setPort(target.port())
                .setSsl(target.ssl())
                .setURI(target.requestUri())
                .setFollowRedirects(false);
        headers.forEach(options::putHeader);
        return client.request(options).chain(request -> request.send(Buffer.buffer(body))
                .chain(response -> read(response, started))
                .onCancellation().invoke(() -> request.reset()));
    }

    private static Uni<SendResult> read(HttpClientResponse response, long started) {
        Map<String, String> headers = new LinkedHashMap<>();
        response.headers().names().forEach(name ->
                headers.put(name.toLowerCase(Locale.ROOT), String.join(", ", response.headers().getAll(name))));
        return response.toMulti()
                .collect().in(CappedBody::new, CappedBody::add)
                .map(captured -> new SendResult(response.statusCode(), headers, captured.text(), null, false, elapsed(started)));
    }

    private SendResult failed(Throwable failure, long started) {
        if (failure instanceof TimeoutException) {
            return new SendResult(null, Map.of(), null, "No complete answer within " + requestTimeout.toMillis() + " ms",
                    true, elapsed(started));
        }
        if (failure instanceof UnsafeUrl unsafe) {
            return new SendResult(null, Map.of(), null, "Refused to call the URL: " + unsafe.getMessage(), false, elapsed(started));
        }
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        boolean connectTimeout = message.toLowerCase().contains("timed out");
        return new SendResult(null, Map.of(), null, "Connection failed: " + message, connectTimeout, elapsed(started));
    }

    private static long elapsed(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }

    /** Keeps the first bytes of a body; the rest is read and dropped so the connection stays usable. */
    private static final class CappedBody {
        private final io.vertx.core.buffer.Buffer kept = io.vertx.core.buffer.Buffer.buffer();
        private boolean truncated;

        void add(Buffer chunk) {
            int room = RESPONSE_CAPTURE_BYTES - kept.length();
            if (chunk.length() <= room) {
                kept.appendBuffer(chunk.getDelegate());
            } else {
                if (room > 0) {
                    kept.appendBuffer(chunk.getDelegate(), 0, room);
                }
                truncated = true;
            }
        }

        String text() {
            String text = new String(kept.getBytes(), StandardCharsets.UTF_8);
            return truncated ? text + "…[truncated]" : text;
        }
    }
}
