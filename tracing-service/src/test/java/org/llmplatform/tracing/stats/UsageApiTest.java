package org.llmplatform.tracing.stats;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/** {@code POST /trace/usage} and {@code POST /calls/usage}: usage rolled up from descendants, as the reference sums it. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class UsageApiTest {

    private TraceClient client;

    /** Trace of r: r → a → b (running), r → c (a usage without counts); trace of s: just s. */
    @BeforeEach
    void twoTraces() {
        client = new TraceClient("usage");
        client.write(List.of(client.start("r", "root", "2025-01-01T00:00:00Z"), child("a", "r", 1), child("b", "a", 2),
                        child("c", "r", 3), client.start("s", "root", "2025-01-01T00:01:00Z")),
                List.of(withUsage(client.end("r", "2025-01-01T00:00:09Z"),
                                Map.of("gpt-4o", Map.of("prompt_tokens", 10, "completion_tokens", 5, "requests", 1))),
                        withUsage(client.end("a", "2025-01-01T00:00:08Z"),
                                Map.of("gpt-4o", Map.of("prompt_tokens", 1, "completion_tokens", 2, "requests", 1),
                                        "claude", Map.of("input_tokens", 3, "output_tokens", 4))),
                        withUsage(client.end("c", "2025-01-01T00:00:05Z"), Map.of("empty", Map.of("requests", 0))),
                        withUsage(client.end("s", "2025-01-01T00:01:05Z"), Map.of("gpt-4o", Map.of("total_tokens", 100, "requests", 2)))));
    }

    @Test
    void traceUsageGivesEveryCallItsOwnAndItsDescendantsUsage() {
        Map<String, Object> answer = client.post("/trace/usage", Map.of("project_id", client.project,
                "filter", Map.of("trace_ids", List.of("trace-r")))).statusCode(200).extract().jsonPath().getMap("$");
        Map<String, Map<String, Map<String, Object>>> usage = callUsage(answer);
        assertEquals(List.of("r", "a", "b", "c"), List.copyOf(usage.keySet()));
        assertEquals(List.of("gpt-4o", "claude"), List.copyOf(usage.get("r").keySet()));
        assertEquals(usage(2, 11, 7, 18), counts(usage.get("r").get("gpt-4o")));
        assertEquals(usage(0, 3, 4, 7), counts(usage.get("r").get("claude")));
        assertEquals(usage(1, 1, 2, 3), counts(usage.get("a").get("gpt-4o")));
        assertEquals(Map.of(), usage.get("b"));
        assertEquals(Map.of(), usage.get("c"), "a model without any count is left out");
        assertEquals(null, usage.get("r").get("gpt-4o").get("prompt_tokens_total_cost"));
        assertEquals(List.of("b"), answer.get("unfinished_call_ids"));
    }

    @Test
    void callsUsageRollsUpEachRequestedCallsTrace() {
        Map<String, Object> answer = client.post("/calls/usage", Map.of("project_id", client.project,
                "call_ids", List.of("r", "s", "nope"))).statusCode(200).extract().jsonPath().getMap("$");
        Map<String, Map<String, Map<String, Object>>> usage = callUsage(answer);
        assertEquals(List.of("r", "s", "nope"), List.copyOf(usage.keySet()));
        assertEquals(usage(2, 11, 7, 18), counts(usage.get("r").get("gpt-4o")));
        assertEquals(usage(2, 0, 0, 100), counts(usage.get("s").get("gpt-4o")));
        assertEquals(Map.of(), usage.get("nope"));
        assertEquals(List.of("b"), answer.get("unfinished_call_ids"));
        Map<String, Object> costed = client.post("/calls/usage", Map.of("project_id", client.project, "call_ids", List.of("s"),
                "include_costs", true)).statusCode(200).extract().jsonPath().getMap("$");
        Map<String, Object> priced = callUsage(costed).get("s").get("gpt-4o");
        assertTrue(priced.get("prompt_tokens_total_cost") instanceof Number, "costs are numbers once asked for: " + priced);
    }

    @Test
    void limitsAreChecked() {
        client.post("/calls/usage", Map.of("project_id", client.project, "call_ids", List.of("r"), "limit", 3)).statusCode(413)
                .body("reason", equalTo("Cannot compute complete usage: a single trace exceeds the 3-call aggregation limit."
                        + " Increase limit and retry."));
        client.post("/calls/usage", Map.of("project_id", client.project, "call_ids", List.of("r", "s"), "limit", 4))
                .statusCode(200).body("call_usage.s.'gpt-4o'.total_tokens", equalTo(100));
        client.post("/calls/usage", Map.of("project_id", client.project, "call_ids", List.of("r"), "limit", 0)).statusCode(400)
                .body("reason", equalTo("Usage aggregation limit must be positive"));
        client.post("/calls/usage", Map.of("project_id", client.project)).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "call_ids")));
        client.post("/trace/usage", Map.of("project_id", client.project, "filter", Map.of("nope", 1))).statusCode(422);
        TraceClient stranger = new TraceClient("usage-stranger");
        stranger.post("/calls/usage", Map.of("project_id", client.project, "limit", "x")).statusCode(403);
        stranger.post("/trace/usage", Map.of("project_id", client.project, "filter", 3)).statusCode(403);
    }

    private Map<String, Object> child(String id, String parent, int second) {
        Map<String, Object> start = client.start(id, "child", "2025-01-01T00:00:0" + second + "Z");
        start.put("parent_id", parent);
        start.put("trace_id", "trace-r");
        return start;
    }

    private static Map<String, Object> withUsage(Map<String, Object> end, Map<String, Object> usage) {
        end.put("summary", Map.of("usage", usage));
        return end;
    }

    private static Map<String, Object> usage(int requests, int prompt, int completion, int total) {
        return Map.of("requests", requests, "prompt_tokens", prompt, "completion_tokens", completion, "total_tokens", total);
    }

    private static Map<String, Object> counts(Map<String, Object> usage) {
        Map<String, Object> counts = new HashMap<>();
        for (String key : List.of("requests", "prompt_tokens", "completion_tokens", "total_tokens")) {
            counts.put(key, usage.get(key));
        }
        return counts;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Map<String, Object>>> callUsage(Map<String, Object> answer) {
        return (Map<String, Map<String, Map<String, Object>>>) answer.get("call_usage");
    }
}
