package org.llmplatform.tracing.costs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;
import org.llmplatform.tracing.calls.CallQueryApiTest;

/**
 * Which price costs a call (docs/tracing-service.md#costs) when a model has several: one effective at the
 * call's start first, then the project's over the default, then the latest effective date. Both the costs
 * {@code include_costs} shows and the {@code summary.weave.total_cost} calls sort and filter by choose so.
 * The model is {@code default-priced-llm}, whose default price (test profile: 0.25 a prompt token) is
 * effective from 1970-01-01.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class PriceChoiceApiTest {

    private static final String LLM = "default-priced-llm";
    private static final String COST = "summary.weave.total_cost";

    /** Each call: its start, its prompt tokens, and the price that must cost it (level, effective date, total). */
    private record Case(String startedAt, int promptTokens, String level, String effectiveDate, double cost) {
    }

    private static final String SPRING_2024 = "2024-06-01T00:00:00Z";
    private static final String NEW_YEAR_2025 = CallQueryApiTest.at(30);
    private static final String FUTURE = "2030-01-01T00:00:00Z";

    /**
     * The project prices its model at 2 a prompt token from spring 2024, 3 from 2025-01-01T12:00:30 and 5 from
     * 2030; another project at 100 from 2025-01-01, which this project's calls never use.
     */
    private static final Map<String, Case> CASES = cases();

    private TraceClient client;

    private static Map<String, Case> cases() {
        Map<String, Case> cases = new LinkedHashMap<>();
        // No price in effect yet: the project's latest, although the default is older.
        cases.put("before-every-price", new Case("1969-06-01T00:00:00Z", 1, "project", FUTURE, 5));
        // The default is in effect and no price of the project is yet: the default.
        cases.put("before-the-project", new Case("2024-01-01T00:00:00Z", 10, "default", "1970-01-01T00:00:00Z", 2.5));
        // Both in effect: the project's latest in effect, not its latest.
        cases.put("between-two-dates", new Case(CallQueryApiTest.at(10), 2, "project", SPRING_2024, 4));
        // A price effective at the very start of the call is in effect.
        cases.put("at-the-effective-date", new Case(NEW_YEAR_2025, 2, "project", NEW_YEAR_2025, 6));
        cases.put("after-it", new Case(CallQueryApiTest.at(40), 1, "project", NEW_YEAR_2025, 3));
        cases.put("in-the-future", new Case("2031-01-01T00:00:00Z", 3, "project", FUTURE, 15));
        return cases;
    }

    @BeforeEach
    void pricedCalls() {
        client = new TraceClient("pricechoice");
        TraceClient other = new TraceClient("pricechoice-other");
        other.post("/cost/create", Map.of("project_id", other.project, "costs",
                Map.of(LLM, price(100, "2025-01-01T00:00:00Z"), "only-elsewhere", price(100, SPRING_2024))))
                .statusCode(200);
        for (Map.Entry<String, Double> dated : Map.of(SPRING_2024, 2.0, NEW_YEAR_2025, 3.0, FUTURE, 5.0).entrySet()) {
            client.post("/cost/create", Map.of("project_id", client.project, "costs",
                    Map.of(LLM, price(dated.getValue(), dated.getKey())))).statusCode(200);
        }

        List<Map<String, Object>> starts = new ArrayList<>();
        List<Map<String, Object>> ends = new ArrayList<>();
        CASES.forEach((id, call) -> {
            starts.add(client.start(id, "op", call.startedAt()));
            ends.add(endWithUsage(id, LLM, call.promptTokens()));
        });
        starts.add(client.start("priced-elsewhere-only", "op", CallQueryApiTest.at(50)));
        ends.add(endWithUsage("priced-elsewhere-only", "only-elsewhere", 1));
        client.write(starts, ends);
    }

    @Test
    void eachCallIsCostedAtThePriceInEffectAtItsStartTheProjectsBeforeTheDefault() {
        Map<String, Map<String, Object>> costs = new HashMap<>();
        for (Map<String, Object> call : client.query(Map.of("include_costs", true))) {
            Map<String, Object> weave = CallQueryApiTest.weave(call);
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> byModel = (Map<String, Map<String, Object>>) weave.get("costs");
            costs.put((String) call.get("id"), byModel == null ? null : byModel.get(LLM));
        }
        CASES.forEach((id, expected) -> {
            Map<String, Object> cost = costs.get(id);
            assertEquals(expected.level(), cost.get("pricing_level"), id);
            assertEquals(expected.level().equals("project") ? client.project : "default", cost.get("pricing_level_id"), id);
            assertEquals(expected.effectiveDate(), cost.get("effective_date"), id);
            assertEquals(expected.cost(), ((Number) cost.get("prompt_tokens_total_cost")).doubleValue(), 1e-9, id);
        });
        assertNull(costs.get("priced-elsewhere-only"), "another project's price costs nothing here");
    }

    @Test
    void theTotalCostSortsAndFiltersByTheSameChoice() {
        List<String> cheapestFirst = CASES.entrySet().stream()
                .sorted(Map.Entry.comparingByValue((a, b) -> Double.compare(a.cost(), b.cost())))
                .map(Map.Entry::getKey).toList();
        List<String> ascending = new ArrayList<>(cheapestFirst);
        ascending.add("priced-elsewhere-only");
        assertEquals(List.of("before-the-project", "after-it", "between-two-dates", "before-every-price",
                "at-the-effective-date", "in-the-future", "priced-elsewhere-only"), ascending);
        assertEquals(ascending, client.ids(Map.of("sort_by", List.of(Map.of("field", COST, "direction", "asc")))));
        List<String> descending = new ArrayList<>(cheapestFirst);
        Collections.reverse(descending);
        descending.add("priced-elsewhere-only");
        assertEquals(descending, client.ids(Map.of("sort_by", List.of(Map.of("field", COST, "direction", "desc")))));

        assertEquals(List.of("before-every-price", "at-the-effective-date", "in-the-future"),
                client.ids(Map.of("query", Map.of("$expr", Map.of("$gte", List.of(Map.of("$getField", COST),
                        Map.of("$literal", 5)))), "sort_by", List.of(Map.of("field", COST, "direction", "asc")))));
    }

    private Map<String, Object> endWithUsage(String id, String llm, int promptTokens) {
        Map<String, Object> end = client.end(id, "2031-06-01T00:00:00Z");
        end.put("summary", Map.of("usage", Map.of(llm, Map.of("prompt_tokens", promptTokens, "requests", 1))));
        return end;
    }

    private static Map<String, Object> price(double promptTokenCost, String effectiveDate) {
        return Map.of("prompt_token_cost", promptTokenCost, "completion_token_cost", 0, "effective_date", effectiveDate);
    }
}
