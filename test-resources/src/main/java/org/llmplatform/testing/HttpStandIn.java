package org.llmplatform.testing;

import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small HTTP server in the test JVM standing in for another service that the service under test calls; each
 * request gets a thread of its own, so a stand-in may hold a response open while the test goes on.
 */
public abstract class HttpStandIn implements QuarkusTestResourceLifecycleManager {

    private HttpServer server;
    private ExecutorService threads;

    /** Adds the stand-in's contexts to {@code server}. */
    protected abstract void serve(HttpServer server);

    /** The configuration that points the service under test at the stand-in at {@code base}. */
    protected abstract Map<String, String> config(URI base);

    @Override
    public final Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException("the stand-in could not listen", e);
        }
        threads = Executors.newCachedThreadPool();
        server.setExecutor(threads);
        serve(server);
        server.start();
        return config(URI.create("http://localhost:" + server.getAddress().getPort()));
    }

    @Override
    public final void stop() {
        server.stop(0);
        threads.shutdownNow();
    }
}
