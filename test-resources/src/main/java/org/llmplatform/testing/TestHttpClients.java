package org.llmplatform.testing;

import java.net.http.HttpClient;
import java.time.Duration;

/** The JDK HTTP client the test tools use to reach a service. */
public final class TestHttpClients {

    private TestHttpClients() {
    }

    /**
     * An HTTP/1.1 client. The JDK client's default asks a plain-HTTP server for an h2c upgrade; a request whose
     * upgraded answer never came once hung a CI run for the server's 30-minute idle timeout, past the request's own
     * timeout. Our users' clients speak HTTP/1.1 to the services, so the tests do too.
     */
    public static HttpClient http1(Duration connectTimeout) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout).build();
    }
}
