package org.llmplatform.tracing.calls;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/** {@code $containsToken}: a whole-token match (ClickHouse's hasToken), compiled to SQL like {@code $contains}. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallContainsTokenApiTest {

    private TraceClient client;

    @BeforeEach
    void threeCalls() {
        client = new TraceClient("token");
        Map<String, Object> t1 = client.start("t1", "op", CallQueryApiTest.at(1));
        t1.put("inputs", Map.of("text", "the error-code was 42"));
        t1.put("display_name", "Daily Report");
        Map<String, Object> t2 = client.start("t2", "op", CallQueryApiTest.at(2));
        t2.put("inputs", Map.of("text", "errors everywhere; code42 café"));
        Map<String, Object> t3 = client.start("t3", "op", CallQueryApiTest.at(3));
        t3.put("inputs", Map.of("text", "error"));
        client.write(List.of(t1, t2, t3), List.of());
    }

    @Test
    void aTokenMatchesOnlyBetweenSeparators() {
        assertEquals(List.of("t1", "t3"), where(containsToken("inputs.text", "error", false)));
        assertEquals(List.of("t1"), where(containsToken("inputs.text", "42", false)));
        assertEquals(List.of("t2"), where(containsToken("inputs.text", "code42", false)));
        assertEquals(List.of(), where(containsToken("inputs.text", "err", false)));
    }

    @Test
    void nonAsciiCharactersBelongToTokens() {
        assertEquals(List.of("t2"), where(containsToken("inputs.text", "café", false)));
        assertEquals(List.of(), where(containsToken("inputs.text", "caf", false)));
    }

    @Test
    void caseInsensitiveMatchingIgnoresCase() {
        assertEquals(List.of(), where(containsToken("display_name", "report", false)));
        assertEquals(List.of("t1"), where(containsToken("display_name", "report", true)));
        assertEquals(List.of("t1", "t3"), where(containsToken("inputs.text", "ERROR", true)));
    }

    @Test
    void anEmptyTokenMatchesNothing() {
        assertEquals(List.of(), where(containsToken("inputs.text", "", false)));
    }

    @Test
    void itCombinesWithOtherOperations() {
        Map<String, Object> notToken = Map.of("$not", List.of(containsToken("inputs.text", "error", false)));
        assertEquals(List.of("t2"), where(notToken));
    }

    @Test
    void anUnknownKeyIsA422() {
        client.post("/calls/stream_query", Map.of("project_id", client.project, "query", Map.of("$expr",
                        Map.of("$containsToken", Map.of("input", Map.of("$getField", "inputs.text"),
                                "substr", Map.of("$literal", "x"), "whole", true)))))
                .statusCode(422).body("detail[0].msg", equalTo("Unknown key whole in $containsToken"));
    }

    private List<String> where(Map<String, Object> expr) {
        return client.ids(Map.of("query", Map.of("$expr", expr)));
    }

    private static Map<String, Object> containsToken(String field, String token, boolean caseInsensitive) {
        return Map.of("$containsToken", Map.of("input", Map.of("$getField", field), "substr", Map.of("$literal", token),
                "case_insensitive", caseInsensitive));
    }
}
