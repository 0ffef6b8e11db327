package org.llmplatform.testing.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One operation of an OpenAPI document, its {@code $ref}s resolved. */
record Operation(String method, String path, List<Parameter> parameters, String bodyType, JsonNode bodySchema) {

    record Parameter(String name, String in, JsonNode schema) {
    }

    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch");

    static List<Operation> all(JsonNode openApi) {
        List<Operation> operations = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> paths = openApi.path("paths").fields();
        while (paths.hasNext()) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (String method : METHODS) {
                JsonNode operation = path.getValue().get(method);
                if (operation != null) {
                    operations.add(of(openApi, method.toUpperCase(), path.getKey(), path.getValue(), operation));
                }
            }
        }
        return operations;
    }

    private static Operation of(JsonNode openApi, String method, String path, JsonNode pathItem, JsonNode operation) {
        Map<String, Parameter> parameters = new LinkedHashMap<>();
        for (JsonNode declared : List.of(pathItem.path("parameters"), operation.path("parameters"))) {
            for (JsonNode parameter : declared) {
                JsonNode resolved = resolve(openApi, parameter);
                String in = resolved.path("in").asText();
                parameters.put(in + ":" + resolved.path("name").asText(),
                        new Parameter(resolved.path("name").asText(), in, resolve(openApi, resolved.path("schema"))));
            }
        }
        String bodyType = null;
        JsonNode bodySchema = null;
        Iterator<Map.Entry<String, JsonNode>> content = resolve(openApi, operation.path("requestBody")).path("content").fields();
        if (content.hasNext()) {
            Map.Entry<String, JsonNode> first = content.next();
            bodyType = first.getKey();
            bodySchema = resolve(openApi, first.getValue().path("schema"));
        }
        return new Operation(method, path, List.copyOf(parameters.values()), bodyType, bodySchema);
    }

    /** Follows {@code $ref}s and takes the first choice of {@code allOf}/{@code oneOf}/{@code anyOf}. */
    static JsonNode resolve(JsonNode openApi, JsonNode schema) {
        JsonNode current = schema;
        for (int hops = 0; hops < 16; hops++) {
            if (current.has("$ref")) {
                current = openApi.at(current.get("$ref").asText().substring(1));
            } else if (!current.has("properties") && !current.has("type")
                    && (current.has("allOf") || current.has("oneOf") || current.has("anyOf"))) {
                JsonNode choices = current.has("allOf") ? current.get("allOf") : current.has("oneOf") ? current.get("oneOf") : current.get("anyOf");
                current = choices.path(0);
            } else {
                return current;
            }
        }
        return current;
    }

    List<Parameter> in(String location) {
        return parameters.stream().filter(parameter -> parameter.in().equals(location)).toList();
    }

    boolean takesBody() {
        return bodyType != null || method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    }
}
