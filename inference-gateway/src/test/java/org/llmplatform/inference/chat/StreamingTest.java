package org.llmplatform.inference.chat;

import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class StreamingTest {

    private final Callers caller = Callers.fresh("stream");

    /** The data payloads of an SSE body, after checking every event is one "data: " line and a blank line. */
    private List<String> events(String extraFields) {
        String body = caller.request().header("X-Request-Id", "stream-1")
                .body(Callers.onceUponATime("\"stream\":true," + extraFields))
                .post("/v1/chat/completions").then().statusCode(200)
                .header("Content-Type", startsWith("text/event-stream"))
                .header("X-Request-Id", "stream-1")
                .extract().asString();
        assertTrue(body.endsWith("data: [DONE]\n\n"), body);
        List<String> payloads = new ArrayList<>();
        for (String event : body.split("\n\n")) {
            assertTrue(event.startsWith("data: ") && !event.contains("\n"), "not a single data line: " + event);
            payloads.add(event.substring("data: ".length()));
        }
        return payloads;
    }

    @Test
    void aStreamIsRoleChunkDeltasFinishChunkUsageChunkThenDone() {
        List<String> events = events("\"temperature\":0,\"max_tokens\":12,\"stream_options\":{\"include_usage\":true}");
        assertEquals("[DONE]", events.get(events.size() - 1));
        List<JsonPath> chunks = events.subList(0, events.size() - 1).stream().map(JsonPath::new).toList();
        JsonPath role = chunks.get(0);
        assertEquals("chat.completion.chunk", role.getString("object"));
        assertEquals("chatcmpl-stream-1", role.getString("id"));
        assertEquals(Map.of("role", "assistant", "content", ""), role.getMap("choices[0].delta"));
        assertTrue(role.getMap("choices[0]").containsKey("finish_reason"));
        assertTrue(role.getMap("choices[0]").containsKey("logprobs"));
        assertFalse(role.getMap("$").containsKey("usage"));
        StringBuilder text = new StringBuilder();
        JsonPath finish = null;
        for (JsonPath chunk : chunks.subList(1, chunks.size() - 1)) {
            assertEquals(1, chunk.getList("choices").size());
            assertEquals(role.getLong("created"), chunk.getLong("created"));
            assertEquals("chatcmpl-stream-1", chunk.getString("id"));
            String delta = chunk.getString("choices[0].delta.content");
            if (chunk.getString("choices[0].finish_reason") != null) {
                finish = chunk;
            } else {
                assertFalse(delta.isEmpty());
            }
            text.append(delta == null ? "" : delta);
        }
        assertTrue(text.toString().startsWith(Callers.GOLDEN), text.toString());
        assertEquals("length", finish.getString("choices[0].finish_reason"));
        JsonPath usage = chunks.get(chunks.size() - 1);
        assertEquals(List.of(), usage.getList("choices"));
        assertEquals(7, usage.getInt("usage.prompt_tokens"));
        assertEquals(12, usage.getInt("usage.completion_tokens"));
        assertEquals(19, usage.getInt("usage.total_tokens"));
    }

    @Test
    void withoutStreamOptionsThereIsNoUsageChunk() {
        List<String> events = events("\"temperature\":0,\"max_tokens\":3");
        JsonPath last = new JsonPath(events.get(events.size() - 2));
        assertEquals("length", last.getString("choices[0].finish_reason"));
        assertNull(last.get("usage"));
    }

    @Test
    void eachChoiceOfNHasItsRoleChunkAndFinishChunk() {
        List<JsonPath> chunks = events("\"temperature\":1,\"n\":2,\"seed\":3,\"max_tokens\":5").stream()
                .filter(event -> !event.equals("[DONE]")).map(JsonPath::new).toList();
        assertEquals(0, chunks.get(0).getInt("choices[0].index"));
        assertEquals(1, chunks.get(1).getInt("choices[0].index"));
        assertEquals(2, chunks.stream().filter(chunk -> chunk.getString("choices[0].finish_reason") != null).count());
    }

    @Test
    void continuousUsageStatsRideOnEveryChunk() {
        List<JsonPath> chunks = events("\"temperature\":0,\"max_tokens\":4,"
                + "\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":true}").stream()
                .filter(event -> !event.equals("[DONE]")).map(JsonPath::new).toList();
        assertEquals(0, chunks.get(0).getInt("usage.completion_tokens"));
        assertTrue(chunks.stream().allMatch(chunk -> chunk.get("usage") != null));
    }

    @Test
    void streamedLogprobsCoverTheTokensOfTheirDelta() {
        List<JsonPath> chunks = events("\"temperature\":0,\"max_tokens\":4,\"logprobs\":true").stream()
                .filter(event -> !event.equals("[DONE]")).map(JsonPath::new).toList();
        int tokens = chunks.stream().skip(1).mapToInt(chunk -> chunk.getList("choices[0].logprobs.content").size()).sum();
        assertEquals(4, tokens);
    }
}
