package org.llmplatform.automation.template;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.llmplatform.support.error.ApiException;

/**
 * A webhook payload template: a JSON object whose string values may hold {@code ${variable}}s (docs/automation-service.md#payload-templates).
 * Variables are substituted inside the parsed tree, so a value is always escaped as JSON; a string that
 * is exactly one {@code ${artifact_metadata.KEY}} takes the metadata value with its JSON type.
 */
public final class PayloadTemplate {

    public static final String ACCESS_TOKEN = "ACCESS_TOKEN";
    public static final String METADATA_PREFIX = "artifact_metadata.";
    public static final Set<String> EVENT_VARIABLES = Set.of("project_name", "entity_name", "event_type", "event_author",
            "alias", "tag", "artifact_collection_name", "artifact_version", "artifact_version_string");
    static final int LARGEST_TEMPLATE = 64 * 1024;
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]*)}");
    private static final Pattern METADATA_KEY = Pattern.compile("[A-Za-z0-9_-]+");
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The template as a JSON object: given as an object, or (as W&B stores it) as a string holding one.
     * Checks every variable against those this webhook offers: event variables, {@code ACCESS_TOKEN} when it
     * has an access token, and its signing secret by name.
     */
    public static ObjectNode validated(JsonNode given, Set<String> secretVariables, List<Object> loc) {
        JsonNode template = given;
        if (given == null || given.isNull()) {
            throw ApiException.invalidField("missing", loc, "Field required", null);
        }
        if (given.isTextual()) {
            try {
                template = JSON.readTree(given.asText());
            } catch (JsonProcessingException e) {
                throw ApiException.invalidField("json_invalid", loc, "The payload template is not valid JSON: "
                        + e.getOriginalMessage(), given.asText());
            }
        }
        if (template == null || !template.isObject()) {
            throw ApiException.invalidField("value_error", loc, "The payload template must be a JSON object", given.toString());
        }
        if (template.toString().getBytes(StandardCharsets.UTF_8).length > LARGEST_TEMPLATE) {
            throw ApiException.invalidField("value_error", loc, "The payload template is larger than 64 KiB", null);
        }
        for (String variable : variables(template, loc)) {
            if (!known(variable, secretVariables)) {
                throw ApiException.invalidField("value_error", loc, "Unknown variable ${" + variable + "}"
                        + hint(variable), "${" + variable + "}");
            }
        }
        return (ObjectNode) template;
    }

    private static boolean known(String variable, Set<String> secretVariables) {
        if (EVENT_VARIABLES.contains(variable) || secretVariables.contains(variable)) {
            return true;
        }
        return variable.startsWith(METADATA_PREFIX) && METADATA_KEY.matcher(variable.substring(METADATA_PREFIX.length())).matches();
    }

    private static String hint(String variable) {
        if (variable.equals(ACCESS_TOKEN)) {
            return ": the webhook has no access token";
        }
        if (variable.startsWith(METADATA_PREFIX)) {
            return ": artifact_metadata takes one top-level key of letters, digits, '_' or '-'";
        }
        return "; known variables are " + String.join(", ", EVENT_VARIABLES.stream().sorted().toList())
                + ", artifact_metadata.<KEY>, and the webhook's own ACCESS_TOKEN and secret name";
    }

    /** The variables named in the template's string values. A variable in a field name is refused. */
    static List<String> variables(JsonNode node, List<Object> loc) {
        List<String> found = new ArrayList<>();
        collect(node, found, loc);
        return found;
    }

    private static void collect(JsonNode node, List<String> found, List<Object> loc) {
        if (node.isTextual()) {
            Matcher matcher = VARIABLE.matcher(node.asText());
            while (matcher.find()) {
                found.add(matcher.group(1));
            }
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (VARIABLE.matcher(field.getKey()).find()) {
                    throw ApiException.invalidField("value_error", loc,
                            "Variables may appear in string values only, not in the field name '" + field.getKey() + "'", field.getKey());
                }
                collect(field.getValue(), found, loc);
            }
        } else if (node.isArray()) {
            node.forEach(element -> collect(element, found, loc));
        }
    }

    /**
     * The template with every variable replaced; {@code values} maps variable names to JSON values. A variable
     * without a value renders as {@code otherwise}, except metadata keys the event lacks, which render empty.
     */
    public static JsonNode render(JsonNode template, Map<String, JsonNode> values, String otherwise) {
        if (template.isTextual()) {
            return renderText(template.asText(), values, otherwise);
        }
        if (template.isObject()) {
            ObjectNode rendered = JSON.createObjectNode();
            template.fields().forEachRemaining(field -> rendered.set(field.getKey(), render(field.getValue(), values, otherwise)));
            return rendered;
        }
        if (template.isArray()) {
            ArrayNode rendered = JSON.createArrayNode();
            template.forEach(element -> rendered.add(render(element, values, otherwise)));
            return rendered;
        }
        return template;
    }

    private static JsonNode renderText(String text, Map<String, JsonNode> values, String otherwise) {
        Matcher whole = VARIABLE.matcher(text);
        if (whole.matches() && whole.group(1).startsWith(METADATA_PREFIX)) {
            JsonNode value = values.get(whole.group(1));
            return value == null ? TextNode.valueOf("") : value;
        }
        Matcher matcher = VARIABLE.matcher(text);
        StringBuilder rendered = new StringBuilder();
        while (matcher.find()) {
            JsonNode value = values.get(matcher.group(1));
            String replacement = value == null
                    ? (matcher.group(1).startsWith(METADATA_PREFIX) ? "" : otherwise)
                    : value.isNull() ? "" : value.isTextual() ? value.asText() : value.toString();
            matcher.appendReplacement(rendered, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(rendered);
        return TextNode.valueOf(rendered.toString());
    }

    public static byte[] bytes(JsonNode payload) {
        try {
            return JSON.writeValueAsBytes(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A JSON tree could not be written", e);
        }
    }

    private PayloadTemplate() {
    }
}
