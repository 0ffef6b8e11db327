package org.llmplatform.automation.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reads JSON the service stored itself (templates, filters, masked payloads); text that does not parse is a bug. */
public final class StoredJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A stored payload template is not JSON", e);
        }
    }

    private StoredJson() {
    }
}
