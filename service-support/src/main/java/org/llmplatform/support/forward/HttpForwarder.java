package org.llmplatform.support.forward;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.httpproxy.Body;
import io.vertx.httpproxy.HttpProxy;
import io.vertx.httpproxy.ProxyContext;
import io.vertx.httpproxy.ProxyInterceptor;
import io.vertx.httpproxy.ProxyOptions;
import io.vertx.httpproxy.ProxyRequest;
import io.vertx.httpproxy.ProxyResponse;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Relays requests to another service as they came (Vert.x's reverse proxy): method, path below the
 * upstream's base path, query, headers and body go there, and its status, headers and body come back, chunk
 * by chunk with back-pressure both ways, so JSON Lines and server-sent events reach the caller as the upstream
 * writes them. Nothing blocks and no body is held whole.
 *
 * <p>A service may run as several replicas: requests take them in turn, and one that refuses the connection
 * (stopped, restarting) is passed over for the next, so a dead replica costs no request: the request never
 * reached it. A request without a body and of a safe method (GET, HEAD, OPTIONS) is also sent to the next
 * replica when the connection fails before the answer's head came back (a replica killed while it answered).
 * An upstream that none of the replicas answers gets 502 with the error body of the API being forwarded, so
 * the caller's client can show what failed.
 */
public final class HttpForwarder {

    private static final Logger LOG = Logger.getLogger(HttpForwarder.class);

    /** Methods whose request may be sent again: they change nothing, and these carry no body to replay. */
    private static final Set<HttpMethod> RESENDABLE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

    /** How long a replica that refused a connection is passed over before it is tried again in its turn. */
    private static final long PASS_OVER_NANOS = 1_000_000_000L;

    private final HttpProxy proxy;
    private final HttpClient client;
    private final List<Replica> replicas;
    private final AtomicInteger turn = new AtomicInteger();

    /**
     * @param client      the client the upstream requests go through (its options hold the timeouts and pool)
     * @param upstream    the service's base URL; a request's path and query are appended to its path
     * @param failureBody the JSON error body for a message, in the shape of the API being forwarded
     */
    public HttpForwarder(HttpClient client, URI upstream, Function<String, String> failureBody) {
        this(client, List.of(upstream), failureBody);
    }

    /**
     * @param upstreams the base URLs of the service's replicas, which differ in host or port only
     */
    public HttpForwarder(HttpClient client, List<URI> upstreams, Function<String, String> failureBody) {
        if (upstreams.isEmpty()) {
            throw new IllegalArgumentException("an upstream needs at least one URL");
        }
        this.client = client;
        this.replicas = upstreams.stream().map(Replica::of).toList();
        String basePath = replicas.get(0).basePath();
        if (replicas.stream().anyMatch(replica -> !replica.basePath().equals(basePath))) {
            throw new IllegalArgumentException("the replicas of one upstream differ in host or port only, not in path: " + upstreams);
        }
        this.proxy = HttpProxy.reverseProxy(new ProxyOptions(), client)
                .origin(context -> connect(context, turn.getAndIncrement()))
                .addInterceptor(new Forwarding(upstreams.size() == 1 ? upstreams.get(0).toString() : upstreams.toString(), basePath,
                        failureBody));
    }

    /** Answers {@code request} with what the upstream answers to it. */
    public void forward(HttpServerRequest request) {
        proxy.handle(request);
    }

    /**
     * A connection to the replica whose turn it is, or to the next one that takes it: first those not passed
     * over, then (all refused lately) every one, so a replica that came back is found at once.
     */
    private Future<HttpClientRequest> connect(ProxyContext context, int turnTaken) {
        int start = Math.floorMod(turnTaken, replicas.size());
        long now = System.nanoTime();
        List<Replica> order = new ArrayList<>(replicas.size());
        for (int i = 0; i < replicas.size(); i++) {
            Replica replica = replicas.get((start + i) % replicas.size());
            if (!replica.passedOver(now)) {
                order.add(replica);
            }
        }
        for (int i = 0; i < replicas.size(); i++) {
            Replica replica = replicas.get((start + i) % replicas.size());
            if (!order.contains(replica)) {
                order.add(replica);
            }
        }
        return connect(context, order, 0);
    }

    private Future<HttpClientRequest> connect(ProxyContext context, List<Replica> order, int index) {
        Replica replica = order.get(index);
        context.set(Replica.class.getName(), replica);
        return client.request(replica.options()).onSuccess(connected -> replica.refusedAt = 0).recover(refused -> {
            replica.refusedAt = System.nanoTime();
            if (index + 1 >= order.size()) {
                return Future.failedFuture(refused);
            }
            LOG.debugf("%s:%d refused the connection (%s); trying the next replica", replica.host(), replica.port(), refused.getMessage());
            return connect(context, order, index + 1);
        });
    }

    /** One replica's address, and when it last refused a connection (0: not lately). */
    private static final class Replica {
        private final RequestOptions address;
        private final String basePath;
        private volatile long refusedAt;

        private Replica(RequestOptions address, String basePath) {
            this.address = address;
            this.basePath = basePath;
        }

        static Replica of(URI upstream) {
            boolean tls = "https".equalsIgnoreCase(upstream.getScheme());
            int port = upstream.getPort() != -1 ? upstream.getPort() : tls ? 443 : 80;
            String basePath = upstream.getRawPath() == null ? "" : upstream.getRawPath().replaceFirst("/$", "");
            return new Replica(new RequestOptions().setHost(upstream.getHost()).setPort(port).setSsl(tls), basePath);
        }

        RequestOptions options() {
            return new RequestOptions(address);
        }

        String host() {
            return address.getHost();
        }

        int port() {
            return address.getPort();
        }

        String basePath() {
            return basePath;
        }

        boolean passedOver(long now) {
            long refused = refusedAt;
            return refused != 0 && now - refused < PASS_OVER_NANOS;
        }
    }

    private final class Forwarding implements ProxyInterceptor {
        private final String upstream;
        private final String basePath;
        private final Function<String, String> failureBody;

        Forwarding(String upstream, String basePath, Function<String, String> failureBody) {
            this.upstream = upstream;
            this.basePath = basePath;
            this.failureBody = failureBody;
        }

        @Override
        public Future<ProxyResponse> handleProxyRequest(ProxyContext context) {
            ProxyRequest request = context.request();
            HttpServerRequest caller = request.proxiedRequest();
            request.setURI(basePath + request.getURI());
            // The upstream sees its own host; the caller's travels as X-Forwarded-Host.
            if (caller.authority() != null) {
                request.putHeader("X-Forwarded-Host", caller.authority().toString());
            }
            request.putHeader("X-Forwarded-Proto", caller.scheme());
            if (caller.remoteAddress() != null) {
                String earlier = caller.getHeader("X-Forwarded-For");
                String address = caller.remoteAddress().hostAddress();
                request.putHeader("X-Forwarded-For", earlier == null ? address : earlier + ", " + address);
            }
            boolean resendable = replicas.size() > 1 && RESENDABLE.contains(caller.method()) && hasNoBody(caller);
            if (resendable) {
                // A body of its own, which each sending streams afresh (the caller's stream can be read only once).
                letTheCallersBodyGo(caller);
                request.setBody(Body.body(Buffer.buffer()));
            }
            Future<ProxyResponse> sent = context.sendRequest();
            if (resendable) {
                sent = sent.recover(failure -> {
                    context.get(Replica.class.getName(), Replica.class).refusedAt = System.nanoTime();
                    LOG.debugf("%s failed before its answer (%s); sending it to the next replica", caller.uri(), failure.getMessage());
                    return connect(context, turn.getAndIncrement()).compose(request::send);
                });
            }
            return sent.recover(failure -> {
                LOG.debugf("%s did not answer %s: %s", upstream, caller.uri(), failure.getMessage());
                letTheCallersBodyGo(caller);
                return Future.succeededFuture(request.response()
                        .setStatusCode(502)
                        .putHeader("Content-Type", "application/json")
                        .setBody(Body.body(Buffer.buffer(
                                failureBody.apply("The upstream service at " + upstream + " did not answer: " + failure.getMessage())))));
            });
        }

        /**
         * Lets a body nobody will read flow away, so the connection serves its next request. Not the proxy's own
         * {@code ProxyRequest.release()}: on a request already read (every HTTP/2 request without a body, any
         * request whose body went to an upstream that then broke off) it throws, and the caller never got an answer.
         */
        private static void letTheCallersBodyGo(HttpServerRequest caller) {
            if (!caller.isEnded()) {
                caller.resume();
            }
        }

        private static boolean hasNoBody(HttpServerRequest caller) {
            String length = caller.getHeader(HttpHeaders.CONTENT_LENGTH);
            return caller.getHeader(HttpHeaders.TRANSFER_ENCODING) == null && (length == null || length.trim().equals("0"));
        }
    }
}
