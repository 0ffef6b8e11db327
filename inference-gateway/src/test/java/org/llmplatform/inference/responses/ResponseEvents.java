package org.llmplatform.inference.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/** The events of a Responses API SSE body, each checked to name its type both in {@code event:} and in its data. */
final class ResponseEvents {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ResponseEvents() {
    }

    static List<JsonNode> parse(String body) throws Exception {
        List<JsonNode> events = new ArrayList<>();
        for (String block : body.split("\n\n")) {
            if (block.isBlank()) {
                continue;
            }
            String name = null;
            StringBuilder data = new StringBuilder();
            for (String line : block.split("\n")) {
                if (line.startsWith("event: ")) {
                    name = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data.append(line.substring(6));
                }
            }
            JsonNode event = JSON.readTree(data.toString());
            // every event of the Responses API's SSE names its type on an event: line before its data
            assertEquals(event.path("type").asText(), name, block);
            events.add(event);
        }
        return events;
    }

    static List<String> types(List<JsonNode> events) {
        return events.stream().map(event -> event.path("type").asText()).toList();
    }

    /** The deltas of the text of output item {@code index}, joined. */
    static String text(List<JsonNode> events, int index) {
        StringBuilder text = new StringBuilder();
        events.stream().filter(event -> "response.output_text.delta".equals(event.path("type").asText())
                && event.path("output_index").asInt() == index).forEach(event -> text.append(event.path("delta").asText()));
        return text.toString();
    }
}
