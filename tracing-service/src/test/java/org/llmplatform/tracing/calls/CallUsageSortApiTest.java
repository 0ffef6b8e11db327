package org.llmplatform.tracing.calls;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/**
 * Sorting and filtering calls by {@code summary.weave.total_tokens} and {@code summary.weave.total_cost}:
 * over pages, with the calls that have no usage (or no price) last whichever the direction.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallUsageSortApiTest {

    private static final String TOKENS = "summary.weave.total_tokens";
    private static final String COST = "summary.weave.total_cost";

    private TraceClient client;

    /**
     * Prices: big 0.01 / 0.02 a prompt / completion token, small 0.0001 / 0.0002; "unpriced" has none.
     * Tokens and cost of each call, started in an order that is neither of these nor the ids':
     * a 15 tokens, $0.2 · b 2000, $0.3 · c 40 (input/output tokens, no total), $0.5 · d 102 over two models,
     * $0.045 · e 5000 of the unpriced model, no cost · f no usage · g still running.
     */
    @BeforeEach
    void sevenCalls() {
        client = new TraceClient("usage-sort");
        client.post("/cost/create", Map.of("project_id", client.project, "costs", Map.of(
                "big", price(0.01, 0.02), "small", price(0.0001, 0.0002)))).statusCode(200);
        Map<String, Integer> startedAt = Map.of("a", 5, "b", 2, "c", 7, "d", 1, "e", 4, "f", 6, "g", 3);
        Map<String, Map<String, Object>> usage = Map.of(
                "a", Map.of("big", tokens(10, 5, 15)),
                "b", Map.of("small", tokens(1000, 1000, 2000)),
                "c", Map.of("big", Map.of("input_tokens", 30, "output_tokens", 10)),
                "d", Map.of("big", tokens(1, 1, 2), "small", tokens(50, 50, 100)),
                "e", Map.of("unpriced", tokens(5000, 0, 5000)),
                "f", Map.of());
        List<Map<String, Object>> starts = new ArrayList<>();
        List<Map<String, Object>> ends = new ArrayList<>();
        startedAt.forEach((id, second) -> starts.add(client.start(id, "op", CallQueryApiTest.at(second))));
        usage.forEach((id, models) -> {
            Map<String, Object> end = client.end(id, CallQueryApiTest.at(startedAt.get(id) + 10));
            end.put("summary", models.isEmpty() ? Map.of() : Map.of("usage", models));
            ends.add(end);
        });
        client.write(starts, ends);
    }

    @Test
    void totalTokensSortEitherWayOverPagesWithCallsWithoutUsageLast() {
        assertEquals(List.of("a", "c", "d", "b", "e", "f", "g"), pagedBy(TOKENS, "asc"));
        assertEquals(List.of("e", "b", "d", "c", "a", "f", "g"), pagedBy(TOKENS, "desc"));
    }

    @Test
    void totalCostSortsEitherWayOverPagesWithCallsWithoutPriceLast() {
        assertEquals(List.of("d", "a", "b", "c", "e", "f", "g"), pagedBy(COST, "asc"));
        assertEquals(List.of("c", "b", "a", "d", "e", "f", "g"), pagedBy(COST, "desc"));
    }

    @Test
    void aPriceAddedLaterCostsTheCallsAlreadyWritten() {
        client.post("/cost/create", Map.of("project_id", client.project, "costs", Map.of("unpriced", price(0.00001, 0))))
                .statusCode(200);
        // e: 5000 prompt tokens at 0.00001 = $0.05, between d and a.
        assertEquals(List.of("d", "e", "a", "b", "c", "f", "g"), pagedBy(COST, "asc"));
    }

    @Test
    void usageTotalsFilterLikeOtherNumbers() {
        assertEquals(List.of("d", "b", "e"), where("$gt", TOKENS, 100));
        assertEquals(List.of("d", "a"), where("$lt", COST, 0.25));
    }

    @Test
    void anUnknownSortFieldIsRefusedByName() {
        Map<String, Object> body = new HashMap<>(Map.of("project_id", client.project, "sort_by",
                List.of(Map.of("field", "total_tokens", "direction", "desc"))));
        client.post("/calls/stream_query", body).statusCode(422).body("reason", equalTo("Field total_tokens is not allowed"));
    }

    /** The whole order, read three calls a page as the console pages. */
    private List<String> pagedBy(String field, String direction) {
        List<String> ids = new ArrayList<>();
        for (int offset = 0; offset < 9; offset += 3) {
            ids.addAll(client.ids(Map.of("sort_by", List.of(Map.of("field", field, "direction", direction)),
                    "limit", 3, "offset", offset)));
        }
        return ids;
    }

    private List<String> where(String comparison, String field, Object value) {
        return client.ids(Map.of("query", Map.of("$expr", Map.of(comparison, List.of(Map.of("$getField", field),
                Map.of("$literal", value))))));
    }

    private static Map<String, Object> tokens(int prompt, int completion, int total) {
        return Map.of("prompt_tokens", prompt, "completion_tokens", completion, "total_tokens", total, "requests", 1);
    }

    private static Map<String, Object> price(double prompt, double completion) {
        Map<String, Object> price = new HashMap<>();
        price.put("prompt_token_cost", prompt);
        price.put("completion_token_cost", completion);
        price.put("effective_date", "2020-01-01T00:00:00Z");
        return price;
    }
}
