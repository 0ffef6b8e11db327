package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.networknt.schema.JsonSchemaException;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.i18n.MessageSource;
import com.networknt.schema.resource.DisallowSchemaLoader;
import java.text.MessageFormat;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Checks a feedback value against an AnnotationSpec's {@code field_schema} (JSON Schema 2020-12, by the
 * networknt validator); answers the first problem found, or empty when the value fits or the schema is no
 * object. A schema never loads anything from outside ({@code $ref} to a URL is refused) and a schema the
 * validator cannot compile does not block feedback, as before the library came in.
 */
final class JsonSchemaCheck {

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
            builder -> builder.schemaLoaders(loaders -> loaders.values(all -> {
                all.clear();
                all.add(DisallowSchemaLoader.getInstance());
            })));

    /** Our wording (what the API said before the library), in code so that no resource bundle is needed natively. */
    private static final Map<String, String> WORDING = Map.ofEntries(
            Map.entry("type", "{0} should be of type {2}"),
            Map.entry("enum", "{0} should be one of {1}"),
            Map.entry("const", "{0} should be {1}"),
            Map.entry("minimum", "{0} should be at least {1}"),
            Map.entry("maximum", "{0} should be at most {1}"),
            Map.entry("exclusiveMinimum", "{0} should be greater than {1}"),
            Map.entry("exclusiveMaximum", "{0} should be less than {1}"),
            Map.entry("minLength", "{0} should have at least {1} characters"),
            Map.entry("maxLength", "{0} should have at most {1} characters"),
            Map.entry("pattern", "{0} should match {1}"),
            Map.entry("minItems", "{0} should have at least {1} items"),
            Map.entry("maxItems", "{0} should have at most {1} items"),
            Map.entry("required", "{0} is missing the required property ''{1}''"),
            Map.entry("additionalProperties", "{0} does not allow the property ''{1}''"));

    private static final MessageSource MESSAGES = new MessageSource() {
        @Override
        public String getMessage(String key, Supplier<String> defaultMessage, Locale locale, Object... arguments) {
            String pattern = WORDING.get(key);
            if (pattern == null) {
                return defaultMessage == null ? key : defaultMessage.get();
            }
            Object[] texts = Arrays.stream(arguments).map(String::valueOf).toArray();
            if (texts.length > 0) {
                texts[0] = ((String) texts[0]).replaceFirst("^\\$", "value");
            }
            return MessageFormat.format(pattern, texts);
        }
    };

    private static final SchemaValidatorsConfig CONFIG = SchemaValidatorsConfig.builder()
            .pathType(PathType.LEGACY)
            .messageSource(MESSAGES)
            .locale(Locale.ROOT)
            .build();

    static Optional<String> problem(JsonNode schema, JsonNode value) {
        if (schema == null || !schema.isObject()) {
            return Optional.empty();
        }
        try {
            return FACTORY.getSchema(schema, CONFIG).validate(value == null ? NullNode.getInstance() : value).stream().findFirst().map(ValidationMessage::getMessage);
        } catch (JsonSchemaException unusable) {
            return Optional.empty();
        }
    }

    private JsonSchemaCheck() {
    }
}
