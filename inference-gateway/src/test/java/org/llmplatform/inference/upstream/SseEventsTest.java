package org.llmplatform.inference.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseEventsTest {

    private static final byte[] FIELD = bytes("\"model\":\"m\"");
    private static final String DELTA = "data: {\"id\":\"1\",\"model\":\"m\",\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n";

    @Test
    void wholePlainEventsPassAsTheyAre() {
        assertTrue(new SseEvents().passesAsIs(bytes(DELTA), FIELD));
        assertTrue(new SseEvents().passesAsIs(bytes(DELTA + DELTA), FIELD));
    }

    @Test
    void eventsThatNeedALookInsideDoNotPass() {
        SseEvents events = new SseEvents();
        assertFalse(events.passesAsIs(bytes("data: {\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":1}}\n\n"), FIELD));
        assertFalse(events.passesAsIs(bytes("data: {\"error\":{\"message\":\"x\"},\"model\":\"m\"}\n\n"), FIELD));
        assertFalse(events.passesAsIs(bytes("data: [DONE]\n\n"), FIELD));
        assertFalse(events.passesAsIs(bytes(DELTA.replace("\"model\":\"m\"", "\"model\":\"other\"")), FIELD));
        assertFalse(events.passesAsIs(bytes(DELTA + "data: {\"model\":\"m\"}"), FIELD));
        assertFalse(events.passesAsIs(bytes(DELTA.replace("\n\n", "\r\n\r\n")), FIELD));
        assertFalse(events.passesAsIs(bytes(DELTA + "\n"), FIELD));
        assertFalse(events.passesAsIs(bytes(": keep-alive\n\n"), FIELD));
    }

    @Test
    void aChunkAfterAnUnfinishedEventIsFed() {
        SseEvents events = new SseEvents();
        assertEquals(List.of(), events.feed(bytes(DELTA.substring(0, 20))));
        assertFalse(events.passesAsIs(bytes(DELTA), FIELD));
        List<String> payloads = events.feed(bytes(DELTA.substring(20) + DELTA));
        assertEquals(2, payloads.size());
        assertEquals(DELTA.substring(6, DELTA.length() - 2), payloads.get(0));
    }

    @Test
    void wholeEventsKeepTheirEventLinesAndWaitForTheirEnd() {
        String created = "event: response.created\ndata: {\"type\":\"response.created\"}\n\n";
        String delta = "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\"}\n\n";
        SseEvents events = new SseEvents();
        List<byte[]> first = events.feedWhole(bytes(created + delta.substring(0, 30)));
        assertEquals(1, first.size());
        assertEquals(created, new String(first.get(0), StandardCharsets.UTF_8));
        List<byte[]> rest = events.feedWhole(bytes(delta.substring(30)));
        assertEquals(delta, new String(rest.get(0), StandardCharsets.UTF_8));
        assertEquals("{\"type\":\"response.output_text.delta\"}", SseEvents.data(rest.get(0)));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
