package org.llmplatform.tracing.otel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.llmplatform.tracing.otel.OtlpModel.Attribute;

class AttributeTreeTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Test
    void dottedKeysNestAndIndexedKeysBecomeLists() {
        String tree = AttributeTree.unflatten(List.of(text("gen_ai.prompt.0.role", "user"),
                text("gen_ai.prompt.1.role", "assistant"), text("gen_ai.system", "openai"), text("plain", "x"),
                text("gaps.0", "a"), text("gaps.2", "c"))).toString();
        assertEquals("{\"gen_ai\":{\"prompt\":[{\"role\":\"user\"},{\"role\":\"assistant\"}],\"system\":\"openai\"},"
                + "\"plain\":\"x\",\"gaps\":{\"0\":\"a\",\"2\":\"c\"}}", tree);
    }

    @Test
    void aValueAndANestedKeyUnderItConflictInEitherOrder() {
        assertThrows(AttributeTree.ConflictingKeysException.class,
                () -> AttributeTree.unflatten(List.of(text("a", "1"), text("a.b", "2"))));
        assertThrows(AttributeTree.ConflictingKeysException.class,
                () -> AttributeTree.unflatten(List.of(text("a.b", "2"), text("a", "1"))));
    }

    @Test
    void pathsWalkObjectsAndLists() {
        var tree = AttributeTree.unflatten(List.of(text("m.0.content", "hi")));
        assertEquals("hi", AttributeTree.get(tree, "m.0.content").asText());
        assertEquals(null, AttributeTree.get(tree, "m.1.content"));
        assertEquals(null, AttributeTree.get(tree, "m.0.content.deeper"));
    }

    @Test
    void longSpanNamesAreShortenedToExactly128WithAHashSuffix() {
        assertEquals("short", SpanToCall.opName("short"));
        String shortened = SpanToCall.opName("y".repeat(300));
        assertEquals(128, shortened.length());
        assertEquals(shortened, SpanToCall.opName("y".repeat(300)));
        assertEquals(false, shortened.equals(SpanToCall.opName("y".repeat(301))));
    }

    private static Attribute text(String key, String value) {
        return new Attribute(key, NODES.textNode(value));
    }
}
