package org.llmplatform.testing.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestHttpClients;
import org.llmplatform.testing.TestIdentities;

/**
 * Sends malformed variants of every operation a service's own {@code /q/openapi} declares and fails, naming
 * each offending request, unless every answer comes in time, is below 500, and every 4xx carries a JSON
 * error body in the service's shape. Variants are fixed by a seed, so a failure reproduces.
 */
public final class OpenApiFuzzer {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SEED = 18_06L;
    private static final Duration TIMEOUT = Duration.ofSeconds(15);
    private static final int PARALLEL_REQUESTS = 4;
    private static final int REPORTED_FAILURES = 80;

    /** A request and what was wrong with its answer; {@code status} 0 where none came. */
    private record Failure(int status, String text) implements Comparable<Failure> {

        /** Hangs and server errors first: they are the worst, and otherwise many 4xx hide them. */
        @Override
        public int compareTo(Failure other) {
            boolean worse = status == 0 || status >= 500;
            boolean otherWorse = other.status == 0 || other.status >= 500;
            return worse != otherWorse ? (worse ? -1 : 1) : text.compareTo(other.text);
        }
    }

    private final URI base;
    private final String authorization;
    private final List<String> otherAuthorizations;
    private final Set<String> errorFields;

    private OpenApiFuzzer(URI base, String authorization, List<String> otherAuthorizations, Set<String> errorFields) {
        this.base = base;
        this.authorization = authorization;
        this.otherAuthorizations = otherAuthorizations;
        this.errorFields = errorFields;
    }

    /**
     * Sends the variants with the platform's bootstrap admin key, and the malformed values also as a new ordinary
     * user, who reaches other paths (a 403, say) than an admin.
     *
     * @param base        the service's root URL
     * @param errorFields the top-level fields of which an error body has at least one, non-empty
     */
    public static OpenApiFuzzer of(URI base, String... errorFields) {
        String user = TestIdentities.userWithKey(TestIdentities.unique("fuzz"));
        return new OpenApiFuzzer(base, "Bearer " + PlatformTestResources.ADMIN_KEY, List.of("Bearer " + user), Set.of(errorFields));
    }

    /** Sends every variant of every operation; throws an {@link AssertionError} listing the failures. */
    public void assertEveryMalformedRequestGetsAJsonClientError() throws Exception {
        List<Operation> operations = Operation.all(openApi());
        if (operations.isEmpty()) {
            throw new AssertionError("the OpenAPI document at " + base + " declares no operation");
        }
        List<MalformedRequest> requests = new ArrayList<>();
        for (Operation operation : operations) {
            requests.addAll(MalformedVariants.of(operation, authorization, SEED));
            for (String other : otherAuthorizations) {
                requests.addAll(MalformedVariants.ofValues(operation, other, SEED));
            }
        }
        RawHttp http = new RawHttp(base.getHost(), base.getPort(), TIMEOUT);
        List<Failure> failures = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL_REQUESTS);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (MalformedRequest request : requests) {
                sent.add(pool.submit(() -> judge(http, request, failures)));
            }
            for (Future<?> each : sent) {
                each.get();
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.println("OpenApiFuzzer: " + requests.size() + " malformed requests to " + operations.size() + " operations, "
                + failures.size() + " failures");
        if (!failures.isEmpty()) {
            List<String> sorted = failures.stream().sorted().map(Failure::text).toList();
            throw new AssertionError(failures.size() + " of " + requests.size() + " malformed requests to " + operations.size()
                    + " operations were not answered with a JSON 4xx:\n  "
                    + String.join("\n  ", sorted.subList(0, Math.min(REPORTED_FAILURES, sorted.size())))
                    + (sorted.size() > REPORTED_FAILURES ? "\n  … and " + (sorted.size() - REPORTED_FAILURES) + " more" : ""));
        }
    }

    private void judge(RawHttp http, MalformedRequest request, List<Failure> failures) {
        RawHttp.Reply reply;
        try {
            reply = http.send(request);
        } catch (IOException | RuntimeException error) {
            failures.add(new Failure(0, request.describe() + " -> " + error.getMessage()));
            return;
        }
        String problem = problem(reply);
        if (problem != null) {
            failures.add(new Failure(reply.status(),
                    request.describe() + " -> " + reply.status() + " " + problem + ": " + MalformedRequest.shortened(reply.bodyText())));
        }
    }

    /** What is wrong with an answer, or null. */
    private String problem(RawHttp.Reply reply) {
        if (reply.status() >= 500) {
            return "server error";
        }
        if (reply.status() < 400) {
            return null;
        }
        if (reply.contentType() == null || !reply.contentType().startsWith("application/json")) {
            return "content type " + reply.contentType();
        }
        JsonNode body;
        try {
            body = JSON.readTree(reply.body());
        } catch (IOException notJson) {
            return "body is no JSON";
        }
        if (body == null || !body.isObject()) {
            return "body is no JSON object";
        }
        for (String field : errorFields) {
            JsonNode value = body.path(field);
            if (value.isTextual() && !value.asText().isBlank() || value.isContainerNode() && !value.isEmpty()) {
                return null;
            }
        }
        return "body has none of " + errorFields;
    }

    private JsonNode openApi() throws IOException, InterruptedException {
        HttpResponse<byte[]> response = TestHttpClients.http1(TIMEOUT).send(
                HttpRequest.newBuilder(base.resolve("/q/openapi?format=json")).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET /q/openapi answered " + response.statusCode());
        }
        return JSON.readTree(response.body());
    }
}
