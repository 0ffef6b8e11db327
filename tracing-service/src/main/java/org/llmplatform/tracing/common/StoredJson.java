package org.llmplatform.tracing.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reads JSON text that PostgreSQL built for a result row; text that does not parse is a bug, not bad input. */
public final class StoredJson {

    public static JsonNode parse(ObjectMapper json, String text) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON does not parse", e);
        }
    }

    private StoredJson() {
    }
}
