package org.llmplatform.testing.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.llmplatform.testing.fuzz.MalformedRequest.Header;

/**
 * The malformed variants of one operation: odd path and query values, bad headers, bodies that do not
 * fit the schema or are no JSON at all, broken multipart, bad encodings and over-long request lines.
 * Each variant is wrong in one way only, so that a failure names its cause.
 *
 * <p>Left out: broken framing (a non-numeric Content-Length, malformed chunks) and request lines or headers
 * beyond the HTTP decoder's limits. Vert.x answers those with an empty 400/414/431, or closes the
 * connection, before any handler that Quarkus lets a service install.
 */
final class MalformedVariants {

    private static final Pattern PATH_PARAMETER = Pattern.compile("\\{([^}:]+)(?::[^}]*)?}");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String PLAIN = "fuzz";

    /** Path values as they go on the wire: some well encoded, some not encoded at all, some broken. */
    private static final List<String> PATH_VALUES = List.of(
            "'", "%27%22", "\"", "%25", "%", "%ZZ", "%E2%82", "%C3%A9%E6%BC%A2%F0%9F%99%82", "é漢🙂", "%00", "%0A%0D",
            "..", "%2E%2E", "%2F", "%5C", "-1", "0", "99999999999999999999999", "null", "%20", "%3Cscript%3E", "%7B%7D",
            "a".repeat(10_000), "%F0%9F%99%82".repeat(1_000));

    /** Query values as they go on the wire. */
    private static final List<String> QUERY_VALUES = List.of(
            "abc", "-1", "0", "99999999999999999999999", "1.5", "1e400", "", "true", "%ZZ", "%", "%E2%82",
            "%C3%A9%F0%9F%99%82", "é漢", "%00", "%5B%5D", "%7B%22a%22%3A1%7D", "null", "'%22", "a".repeat(10_000));

    private static final List<String> BAD_AUTHORIZATIONS = List.of(
            "Bearer", "Bearer ", "Bearer garbage", "Basic Zm9vOmJhcg==", "bearer%ZZ", "Bearer é漢🙂", "Token x",
            "Bearer " + "k".repeat(10_000));

    private static final List<String> BAD_CONTENT_TYPES = List.of(
            "text/plain", "application/xml", "application/json; charset=bogus", "application/json; charset=utf-16",
            ";;;", "multipart/form-data", "application/x-www-form-urlencoded", "", "é/漢");

    private static final List<String> BAD_ACCEPTS = List.of("application/xml", "garbage;;q=x", "text/event-stream", "*/*; q=2");

    private final Operation operation;
    private final String authorization;
    private final Random random;
    private final List<MalformedRequest> variants = new ArrayList<>();

    private MalformedVariants(Operation operation, String authorization, long seed) {
        this.operation = operation;
        this.authorization = authorization;
        this.random = new Random(seed ^ (operation.method() + operation.path()).hashCode());
    }

    /** Every variant, sent with {@code authorization} where the variant is not about that header. */
    static List<MalformedRequest> of(Operation operation, String authorization, long seed) {
        MalformedVariants variants = new MalformedVariants(operation, authorization, seed);
        variants.headers();
        variants.overlongLines();
        return variants.withValues();
    }

    /** The variants whose flaw is a value (path, query, body), as another caller sends them. */
    static List<MalformedRequest> ofValues(Operation operation, String authorization, long seed) {
        return new MalformedVariants(operation, authorization, seed).withValues();
    }

    private List<MalformedRequest> withValues() {
        pathValues();
        queryValues();
        if (operation.takesBody()) {
            bodies();
        }
        return variants;
    }

    private void pathValues() {
        for (Operation.Parameter parameter : operation.in("path")) {
            for (String value : withRandom(PATH_VALUES)) {
                add(target(Map.of(parameter.name(), value), ""), List.of(), typicalBody(),
                        "path " + parameter.name() + " = " + MalformedRequest.shortened(value));
            }
        }
    }

    private void queryValues() {
        for (Operation.Parameter parameter : operation.in("query")) {
            for (String value : withRandom(QUERY_VALUES)) {
                add(target(Map.of(), "?" + parameter.name() + "=" + value), List.of(), typicalBody(),
                        "query " + parameter.name() + " = " + MalformedRequest.shortened(value));
            }
            add(target(Map.of(), "?" + parameter.name() + "=1&" + parameter.name() + "=abc"), List.of(), typicalBody(),
                    "query " + parameter.name() + " repeated");
            add(target(Map.of(), "?" + parameter.name()), List.of(), typicalBody(), "query " + parameter.name() + " without value");
        }
        for (String query : List.of("?unknown_fuzz_parameter=1", "?%ZZ=1", "?a=%", "?a=%E2%82", "?&&&==", "?a=1&%", "?é=漢")) {
            add(target(Map.of(), query), List.of(), typicalBody(), "query " + query);
        }
    }

    private void headers() {
        List<Header> noHeaders = List.of();
        add(target(Map.of(), ""), noHeaders, typicalBody(), "no Authorization", false);
        for (String value : BAD_AUTHORIZATIONS) {
            add(target(Map.of(), ""), List.of(Header.of("Authorization", value)), typicalBody(),
                    "Authorization " + MalformedRequest.shortened(value), false);
        }
        add(target(Map.of(), ""), List.of(Header.of("Authorization", "Bearer garbage")), typicalBody(), "Authorization twice");
        add(target(Map.of(), ""), List.of(Header.of("Authorization", authorization)), typicalBody(), "Authorization twice, equal");
        for (String value : BAD_CONTENT_TYPES) {
            add(target(Map.of(), ""), List.of(Header.of("Content-Type", value)), jsonBytes(sample(operation.bodySchema(), 0)),
                    "Content-Type " + value, true, false);
        }
        for (String value : BAD_ACCEPTS) {
            add(target(Map.of(), ""), List.of(Header.of("Accept", value)), typicalBody(), "Accept " + value);
        }
        for (Operation.Parameter parameter : operation.in("header")) {
            for (String value : List.of("", "garbage", "-1", "é漢", "x".repeat(5_000))) {
                add(target(Map.of(), ""), List.of(Header.of(parameter.name(), value)), typicalBody(),
                        "header " + parameter.name() + " = " + MalformedRequest.shortened(value));
            }
        }
    }

    private void bodies() {
        if (isMultipart()) {
            multipartBodies();
        } else if (operation.bodyType() == null || isJson(operation.bodyType())) {
            jsonBodies();
        } else {
            for (String body : List.of("", "garbage", "{\"a\":1}", "\u0000\u0001\u0002", "x".repeat(100_000))) {
                add(target(Map.of(), ""), List.of(), body.getBytes(StandardCharsets.UTF_8), "body " + MalformedRequest.shortened(body));
            }
        }
        add(target(Map.of(), ""), List.of(Header.of("Content-Encoding", "gzip")), "not gzip".getBytes(StandardCharsets.US_ASCII),
                "Content-Encoding gzip, plain body");
        add(target(Map.of(), ""), List.of(Header.of("Content-Encoding", "bogus")), typicalBody(), "Content-Encoding bogus");
        add(target(Map.of(), ""), List.of(Header.of("Transfer-Encoding", "chunked")), "2\r\n{\"\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                "chunked body, cut JSON");
    }

    private void jsonBodies() {
        String nestedArrays = "[".repeat(5_000) + "]".repeat(5_000);
        String nestedObjects = "{\"a\":".repeat(5_000) + "1" + "}".repeat(5_000);
        List<String> bodies = List.of("", "{", "not json", "[]", "42", "\"text\"", "null", "true", nestedArrays, nestedObjects,
                "{\"a\":1,\"a\":2}", "{\"a\":1e99999}", "{\"unknown_fuzz_field\":{}}", "{\"x\":\"" + "x".repeat(100_000) + "\"}");
        for (String body : bodies) {
            add(target(Map.of(), ""), List.of(), body.getBytes(StandardCharsets.UTF_8), "body " + MalformedRequest.shortened(body));
        }
        byte[] invalidUtf8 = {'{', '"', 'a', '"', ':', '"', (byte) 0xff, (byte) 0xfe, '"', '}'};
        add(target(Map.of(), ""), List.of(), invalidUtf8, "body with invalid UTF-8");
        JsonNode schema = operation.bodySchema();
        if (schema == null) {
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> properties = schema.path("properties").fields();
        while (properties.hasNext()) {
            Map.Entry<String, JsonNode> property = properties.next();
            for (JsonNode value : wrongValues(property.getValue())) {
                ObjectNode body = sample(schema, 0) instanceof ObjectNode object ? object : NODES.objectNode();
                body.set(property.getKey(), value);
                add(target(Map.of(), ""), List.of(), jsonBytes(body),
                        "body field " + property.getKey() + " = " + MalformedRequest.shortened(value.toString()));
            }
        }
    }

    private void multipartBodies() {
        String part = "--b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nhello\r\n";
        List<String[]> cases = List.of(
                new String[] {"multipart/form-data; boundary=b0undary", "no boundary in here at all"},
                new String[] {"multipart/form-data; boundary=b0undary", part},
                new String[] {"multipart/form-data; boundary=b0undary", part.substring(0, 40)},
                new String[] {"multipart/form-data; boundary=other", part + "--b0undary--\r\n"},
                new String[] {"multipart/form-data", part + "--b0undary--\r\n"},
                new String[] {"multipart/form-data; boundary=\"", part + "--b0undary--\r\n"},
                new String[] {"multipart/form-data; boundary=b0undary", "--b0undary\r\n\r\nno headers\r\n--b0undary--\r\n"},
                new String[] {"multipart/form-data; boundary=b0undary", "--b0undary\r\nContent-Disposition: form-data; name=\"project_id\"\r\n\r\n"
                        + "x".repeat(100_000) + "\r\n--b0undary--\r\n"},
                new String[] {"multipart/form-data; boundary=b0undary", "--b0undary--\r\n"});
        for (String[] multipart : cases) {
            add(target(Map.of(), ""), List.of(Header.of("Content-Type", multipart[0])), multipart[1].getBytes(StandardCharsets.UTF_8),
                    "multipart " + multipart[0] + " with " + MalformedRequest.shortened(multipart[1]), true, false);
        }
    }

    private void overlongLines() {
        for (int kilobytes : new int[] {20, 100}) {
            add(target(Map.of(), "?q=" + "a".repeat(kilobytes * 1000)), List.of(), typicalBody(), kilobytes + " KB query");
            add(target(Map.of(), "/" + "a".repeat(kilobytes * 1000)), List.of(), typicalBody(), kilobytes + " KB path");
        }
    }

    /** Values of the wrong type for a property, and values of the right type that no one expects. */
    private static List<JsonNode> wrongValues(JsonNode schema) {
        List<JsonNode> values = new ArrayList<>();
        values.add(NODES.nullNode());
        ArrayNode nestedList = NODES.arrayNode().add(NODES.arrayNode().add(1));
        switch (type(schema)) {
            case "string" -> {
                values.add(NODES.objectNode().set("nested", nestedList));
                values.add(nestedList);
                values.add(NODES.textNode("x".repeat(100_000)));
                values.add(NODES.textNode("'\"%ZZ\u0000é漢🙂"));
            }
            case "integer", "number" -> {
                values.add(NODES.textNode("not-a-number"));
                values.add(NODES.numberNode(new java.math.BigInteger("9".repeat(40))));
                values.add(NODES.numberNode(-1));
                values.add(NODES.numberNode(1.5));
            }
            case "boolean" -> values.add(NODES.textNode("maybe"));
            case "array" -> {
                values.add(NODES.textNode("not-a-list"));
                values.add(NODES.arrayNode().add(NODES.arrayNode()).add(42).add("x"));
            }
            case "object" -> {
                values.add(NODES.numberNode(42));
                values.add(nestedList);
            }
            default -> {
            }
        }
        return values;
    }

    /** A value that fits the schema, with only the required properties of objects. */
    private JsonNode sample(JsonNode schema, int depth) {
        if (schema == null || depth > 4) {
            return NODES.objectNode();
        }
        if (schema.has("enum")) {
            return schema.get("enum").path(0).deepCopy();
        }
        return switch (type(schema)) {
            case "string" -> NODES.textNode(switch (schema.path("format").asText()) {
                case "uuid" -> new java.util.UUID(random.nextLong(), random.nextLong()).toString();
                case "date-time" -> "2024-01-01T00:00:00Z";
                case "date" -> "2024-01-01";
                default -> PLAIN;
            });
            case "integer", "number" -> NODES.numberNode(1);
            case "boolean" -> NODES.booleanNode(true);
            case "array" -> NODES.arrayNode();
            default -> {
                ObjectNode object = NODES.objectNode();
                for (JsonNode required : schema.path("required")) {
                    object.set(required.asText(), sample(schema.path("properties").path(required.asText()), depth + 1));
                }
                yield object;
            }
        };
    }

    private static String type(JsonNode schema) {
        JsonNode type = schema.path("type");
        if (type.isArray()) {
            for (JsonNode choice : type) {
                if (!choice.asText().equals("null")) {
                    return choice.asText();
                }
            }
        }
        if (type.isTextual()) {
            return type.asText();
        }
        return schema.has("properties") ? "object" : "";
    }

    /** The body a variant that is about something else carries: an empty object where the operation takes JSON. */
    private byte[] typicalBody() {
        if (!operation.takesBody() || isMultipart()) {
            return new byte[0];
        }
        return "{}".getBytes(StandardCharsets.US_ASCII);
    }

    private List<String> withRandom(List<String> values) {
        List<String> all = new ArrayList<>(values);
        StringBuilder garbage = new StringBuilder();
        for (int i = 0, length = 1 + random.nextInt(40); i < length; i++) {
            garbage.append("%").append(String.format("%02X", 1 + random.nextInt(254)));
        }
        all.add(garbage.toString());
        return all;
    }

    private byte[] target(Map<String, String> pathValues, String suffix) {
        Matcher parameters = PATH_PARAMETER.matcher(operation.path());
        StringBuilder target = new StringBuilder();
        while (parameters.find()) {
            parameters.appendReplacement(target, Matcher.quoteReplacement(pathValues.getOrDefault(parameters.group(1), PLAIN)));
        }
        parameters.appendTail(target).append(suffix);
        return target.toString().getBytes(StandardCharsets.UTF_8);
    }

    private void add(byte[] target, List<Header> headers, byte[] body, String flaw) {
        add(target, headers, body, flaw, true, true);
    }

    private void add(byte[] target, List<Header> headers, byte[] body, String flaw, boolean authorize) {
        add(target, headers, body, flaw, authorize, true);
    }

    private void add(byte[] target, List<Header> extra, byte[] body, String flaw, boolean authorize, boolean typed) {
        List<Header> headers = new ArrayList<>();
        if (authorize) {
            headers.add(Header.of("Authorization", authorization));
        }
        if (typed && operation.takesBody()) {
            headers.add(Header.of("Content-Type", isJson(operation.bodyType()) || operation.bodyType() == null
                    ? "application/json" : operation.bodyType()));
        }
        headers.addAll(extra);
        variants.add(new MalformedRequest(operation.method(), target, List.copyOf(headers), body, flaw));
    }

    private boolean isMultipart() {
        return operation.bodyType() != null && operation.bodyType().startsWith("multipart/");
    }

    private static boolean isJson(String type) {
        return type == null || type.contains("json") && !type.contains("jsonl") || type.equals("*/*");
    }

    private static byte[] jsonBytes(JsonNode node) {
        try {
            return new ObjectMapper().writeValueAsBytes(node);
        } catch (Exception impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
