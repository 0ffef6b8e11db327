package org.llmplatform.model.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class UsageRecordTest {

    private static final ObjectMapper JSON = JsonMapper.builder().addModule(new JavaTimeModule()).build();

    @Test
    void theTrackingCallIsAnOptionalField() throws Exception {
        Instant at = Instant.parse("2025-01-01T00:00:00Z");
        UsageRecord tracked = new UsageRecord(1, "chatcmpl-1", "team/p", "ada", "m", 3, 2, 1, "success", at, at, "call-7");
        String written = JSON.writeValueAsString(tracked);
        assertEquals("call-7", JSON.readTree(written).get("weave_call_id").asText());
        assertEquals(tracked, JSON.readValue(written, UsageRecord.class));

        UsageRecord older = JSON.readValue("""
                {"schema_version": 1, "request_id": "chatcmpl-2", "project_id": "team/p", "model": "m",
                 "prompt_tokens": 3, "completion_tokens": 2, "latency_ms": 1, "status": "success"}""", UsageRecord.class);
        assertNull(older.weaveCallId());
        assertEquals(5, older.totalTokens());
    }

    @Test
    void theCompletionsIdRequestAndAnswerAreOptionalFields() throws Exception {
        Instant at = Instant.parse("2025-01-01T00:00:00Z");
        UsageRecord answered = new UsageRecord(1, "chatcmpl-3", "team/p", "ada", "m", 3, 2, 1, UsageRecord.SUCCESS, at, at,
                null, "chatcmpl-3", JSON.readTree("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"),
                JSON.readTree("{\"id\": \"chatcmpl-3\", \"choices\": []}"), null);
        String written = JSON.writeValueAsString(answered);
        assertEquals("hi", JSON.readTree(written).at("/request/messages/0/content").asText());
        assertEquals(answered, JSON.readValue(written, UsageRecord.class));

        UsageRecord older = JSON.readValue("""
                {"schema_version": 1, "request_id": "chatcmpl-4", "project_id": "team/p", "model": "m",
                 "prompt_tokens": 3, "completion_tokens": 2, "latency_ms": 1, "status": "success", "weave_call_id": "c"}""",
                UsageRecord.class);
        assertNull(older.responseId());
        assertNull(older.request());
        assertNull(older.response());
    }

    @Test
    void aPayloadPastTheLimitIsThePlaceholder() throws Exception {
        String longText = "x".repeat(UsageRecord.MAX_PAYLOAD_CHARS);
        assertEquals(UsageRecord.exceedsLimits(),
                UsageRecord.withinLimit(JSON.createObjectNode().put("content", longText)));
        assertEquals("short", UsageRecord.withinLimit(JSON.createObjectNode().put("content", "short")).path("content").asText());
        assertNull(UsageRecord.withinLimit(null));
    }

    @Test
    void aPayloadHeldAsTextIsWrittenAsItIs() throws Exception {
        Instant at = Instant.parse("2025-01-01T00:00:00Z");
        String answer = "{\"id\":\"chatcmpl-5\",\"choices\":[{\"message\":{\"content\":\"h\u00e9 \\\"quoted\\\"\"}}]}";
        UsageRecord answered = new UsageRecord(1, "chatcmpl-5", "team/p", "ada", "m", 3, 2, 1, UsageRecord.SUCCESS, at,
                at, null, "chatcmpl-5", UsageRecord.withinLimitAsWritten("{\"model\":\"m\"}"),
                UsageRecord.withinLimitAsWritten(answer), null);
        UsageRecord read = JSON.readValue(JSON.writeValueAsBytes(answered), UsageRecord.class);
        assertEquals(JSON.readTree(answer), read.response());
        assertEquals("h\u00e9 \"quoted\"", read.response().at("/choices/0/message/content").asText());
        assertEquals("m", read.request().path("model").asText());

        assertEquals(UsageRecord.exceedsLimits(),
                UsageRecord.withinLimitAsWritten("\"" + "x".repeat(UsageRecord.MAX_PAYLOAD_CHARS) + "\""));
        assertNull(UsageRecord.withinLimitAsWritten(null));
    }

    @Test
    void theRequestIdsPrefixNamesTheApi() {
        assertEquals(UsageRecord.Api.CHAT_COMPLETIONS, UsageRecord.Api.of("chatcmpl-1"));
        assertEquals(UsageRecord.Api.COMPLETIONS, UsageRecord.Api.of("cmpl-1"));
        assertEquals(UsageRecord.Api.EMBEDDINGS, UsageRecord.Api.of("embd-1"));
        assertEquals(UsageRecord.Api.RESPONSES, UsageRecord.Api.of("resp-1"));
        assertEquals(UsageRecord.Api.CHAT_COMPLETIONS, UsageRecord.Api.of("req-1"));
        assertEquals(UsageRecord.Api.CHAT_COMPLETIONS, UsageRecord.Api.of(null));
    }
}
