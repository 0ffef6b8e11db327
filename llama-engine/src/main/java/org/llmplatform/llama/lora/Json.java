package org.llmplatform.llama.lora;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * The adapter files' JSON through Jackson, read strictly: nothing after the value, no duplicate member,
 * at most 64 levels deep, and numbers exact ({@link BigDecimal}), so that {@code 8.5} is never taken for a rank.
 * Malformed input throws {@link IllegalArgumentException} saying what is wrong and where.
 */
final class Json {

    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build())
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    private Json() {
    }

    static JsonNode parse(byte[] json, String what) {
        try {
            JsonNode value = MAPPER.readTree(json);
            if (value == null || value.isMissingNode()) {
                throw new IllegalArgumentException(what + " is not valid JSON: it is empty");
            }
            return value;
        } catch (JsonProcessingException malformed) {
            throw new IllegalArgumentException(what + " is not valid JSON: " + malformed.getOriginalMessage()
                    + (malformed.getLocation() == null ? "" : " at offset " + malformed.getLocation().getCharOffset()));
        } catch (IOException unreadable) {
            throw new IllegalArgumentException(what + " could not be read: " + unreadable.getMessage(), unreadable);
        }
    }

    /** An exact number, or null for anything else. */
    static BigDecimal number(JsonNode value) {
        return value != null && value.isNumber() ? value.decimalValue() : null;
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static String write(JsonNode value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException("a JSON tree could not be written", impossible);
        }
    }

    static String quote(String text) {
        return write(MAPPER.getNodeFactory().textNode(text));
    }
}
