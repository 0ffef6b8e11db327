package org.llmplatform.testing.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.llmplatform.testing.TestHttpClients;
import org.llmplatform.testing.TestIdentities;

/**
 * Sends every operation of a service's own {@code /q/openapi} an invalid request that names another entity's
 * project (in the body, the path, the query and the headers the operation declares), with a valid key of a user
 * who is no member of that entity, and fails unless every answer is the service's access refusal: the access
 * check must come before any validation, so a stranger learns nothing from the shape of the answer.
 *
 * <p>The body is built from the operation's schema: {@code project_id} names the other entity's project,
 * {@code entity} the other entity, {@code refs} a ref into its project, other {@code *_id} fields a random UUID
 * (an object the stranger cannot see, whether or not it exists), nested objects and arrays are filled the
 * same way, every other field is left out (so required fields are missing) and each object gets a key no schema
 * has. Operations with no project scope are listed by the test with the reason, and skipped.
 */
public final class AccessFirstProbe {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Duration TIMEOUT = Duration.ofSeconds(15);
    private static final Pattern PATH_PARAMETER = Pattern.compile("\\{([^}:]+)(?::[^}]*)?}");
    private static final String UNKNOWN_KEY = "access_probe_unknown_key";

    private final URI base;
    private final String strangerKey;
    private final String owner;
    private final Set<Integer> refusals;
    private final Map<String, String> values = new HashMap<>();
    private final Map<String, String> unscoped = new LinkedHashMap<>();
    private JsonNode document;

    private AccessFirstProbe(URI base, Set<Integer> refusals) {
        this.base = base;
        this.refusals = refusals;
        this.owner = TestIdentities.unique("owner");
        TestIdentities.userWithKey(owner);
        this.strangerKey = TestIdentities.userWithKey(TestIdentities.unique("stranger"));
    }

    /** A probe whose requests name a fresh user's entity, sent with another fresh user's key. */
    public static AccessFirstProbe of(URI base, Integer... refusals) {
        return new AccessFirstProbe(base, Set.of(refusals));
    }

    /** The entity whose project every request names; it exists, and the stranger is no member of it. */
    public String owner() {
        return owner;
    }

    /**
     * The value sent for a path, query or header parameter of this name. Without one: {@code entity} and
     * {@code *_entity} are the owner, {@code project_id} and names holding "project" the owner's project
     * {@code owner/probe}, anything else a random UUID.
     */
    public AccessFirstProbe value(String parameter, String value) {
        values.put(parameter, value);
        return this;
    }

    /** Skips {@code "METHOD /path"}, which has no project scope; the reason goes in the test, for readers. */
    public AccessFirstProbe unscoped(String operation, String reason) {
        unscoped.put(operation, reason);
        return this;
    }

    public void assertEveryOperationRefusesAStrangerBeforeValidating() throws IOException, InterruptedException {
        document = openApi();
        List<Operation> operations = Operation.all(document);
        List<String> declared = operations.stream().map(operation -> operation.method() + " " + operation.path()).toList();
        List<String> failures = new ArrayList<>();
        for (String skipped : unscoped.keySet()) {
            if (!declared.contains(skipped)) {
                failures.add(skipped + ": listed as unscoped but not in the OpenAPI document");
            }
        }
        HttpClient http = TestHttpClients.http1(TIMEOUT);
        int sent = 0;
        for (Operation operation : operations) {
            if (unscoped.containsKey(operation.method() + " " + operation.path())) {
                continue;
            }
            HttpRequest request = request(operation);
            HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
            sent++;
            if (!refusals.contains(answer.statusCode())) {
                failures.add(operation.method() + " " + request.uri().getRawPath() + " -> " + answer.statusCode() + " "
                        + MalformedRequest.shortened(answer.body()));
            }
        }
        System.out.println("AccessFirstProbe: " + sent + " operations sent, " + unscoped.size() + " unscoped, "
                + failures.size() + " failures");
        if (!failures.isEmpty()) {
            throw new AssertionError(failures.size() + " operations did not answer a stranger's invalid request with "
                    + refusals + ":\n  " + String.join("\n  ", failures));
        }
    }

    private HttpRequest request(Operation operation) {
        Matcher parameters = PATH_PARAMETER.matcher(operation.path());
        StringBuilder path = new StringBuilder();
        while (parameters.find()) {
            parameters.appendReplacement(path, Matcher.quoteReplacement(encode(valueOf(parameters.group(1)))));
        }
        parameters.appendTail(path);
        List<String> query = new ArrayList<>();
        for (Operation.Parameter parameter : operation.in("query")) {
            query.add(encode(parameter.name()) + "=" + encode(valueOf(parameter.name())));
        }
        URI uri = base.resolve(path + (query.isEmpty() ? "" : "?" + String.join("&", query)));
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(TIMEOUT)
                .header("Authorization", "Bearer " + strangerKey);
        for (Operation.Parameter parameter : operation.in("header")) {
            if (!parameter.name().equalsIgnoreCase("Authorization") && !parameter.name().equalsIgnoreCase("Content-Type")) {
                builder.header(parameter.name(), valueOf(parameter.name()));
            }
        }
        if (!operation.takesBody()) {
            return builder.method(operation.method(), HttpRequest.BodyPublishers.noBody()).build();
        }
        String type = operation.bodyType() == null ? "application/json" : operation.bodyType();
        byte[] body;
        if (type.startsWith("multipart/")) {
            String boundary = "probe" + UUID.randomUUID().toString().replace("-", "");
            type = "multipart/form-data; boundary=" + boundary;
            body = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"project_id\"\r\n\r\n" + project()
                    + "\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        } else if (type.contains("json") || type.startsWith("*/*")) {
            type = "application/json";
            body = invalidBody(operation.bodySchema(), 0).toString().getBytes(StandardCharsets.UTF_8);
        } else {
            body = "\u0000 not a valid body".getBytes(StandardCharsets.UTF_8);
        }
        return builder.header("Content-Type", type)
                .method(operation.method(), HttpRequest.BodyPublishers.ofByteArray(body)).build();
    }

    private JsonNode invalidBody(JsonNode schema, int depth) {
        ObjectNode body = NODES.objectNode();
        body.put(UNKNOWN_KEY, true);
        if (schema == null || depth > 5) {
            body.put("project_id", project());
            return body;
        }
        Iterator<Map.Entry<String, JsonNode>> properties = schema.path("properties").fields();
        while (properties.hasNext()) {
            Map.Entry<String, JsonNode> property = properties.next();
            String name = property.getKey();
            JsonNode type = Operation.resolve(document, property.getValue());
            JsonNode items = Operation.resolve(document, type.path("items"));
            if (name.equals("project_id")) {
                body.put(name, project());
            } else if (name.equals("entity")) {
                body.put(name, owner);
            } else if (name.endsWith("_id") && "string".equals(type.path("type").asText())) {
                body.put(name, UUID.randomUUID().toString());
            } else if (name.equals("refs")) {
                body.set(name, NODES.arrayNode().add("weave:///" + project() + "/object/probe:" + "0".repeat(43)));
            } else if (type.has("properties")) {
                body.set(name, invalidBody(type, depth + 1));
            } else if ("array".equals(type.path("type").asText()) && items.has("properties")) {
                ArrayNode elements = NODES.arrayNode();
                elements.add(invalidBody(items, depth + 1));
                body.set(name, elements);
            }
        }
        return body;
    }

    private String valueOf(String parameter) {
        if (values.containsKey(parameter)) {
            return values.get(parameter);
        }
        if (parameter.equals("entity") || parameter.endsWith("_entity")) {
            return owner;
        }
        if (parameter.toLowerCase().contains("project")) {
            return project();
        }
        return UUID.randomUUID().toString();
    }

    private String project() {
        return owner + "/probe";
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
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
