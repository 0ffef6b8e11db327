package org.llmplatform.tracing.costs;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;
import org.llmplatform.tracing.calls.CallQueryApiTest;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CostApiTest {

    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("coster");
    }

    @Test
    void pricesAreCreatedPerModelAndQueriedByTheirFields() {
        Map<String, Object> costs = new LinkedHashMap<>();
        costs.put("a", price(10, 20));
        costs.put("b", price(10, 30));
        costs.put("c", price(10, 40));
        costs.put("d", price(10, 50));
        List<List<String>> ids = client.post("/cost/create", Map.of("project_id", client.project, "costs", costs))
                .statusCode(200).body("ids", hasSize(4)).extract().path("ids");
        assertEquals(List.of("a", "b", "c", "d"), ids.stream().map(pair -> pair.get(1)).toList());

        client.post("/cost/query", Map.of("project_id", client.project, "query", Map.of("$expr", Map.of("$gt", List.of(
                Map.of("$getField", "completion_token_cost"), Map.of("$literal", 25)))))).statusCode(200)
                .body("results", hasSize(3));
        client.post("/cost/query", Map.of("project_id", client.project, "fields", List.of("llm_id", "prompt_token_cost_unit",
                "provider_id"), "sort_by", List.of(Map.of("field", "completion_token_cost", "direction", "desc")), "limit", 1))
                .body("results", equalTo(List.of(Map.of("llm_id", "d", "prompt_token_cost_unit", "USD",
                        "provider_id", "default"))));
        new TraceClient("other").post("/cost/query", Map.of("project_id", client.project)).statusCode(403);
    }

    @Test
    void purgeTakesOnlyIdQueriesAndKeepsOtherProjectsPrices() {
        List<List<String>> ids = client.post("/cost/create", Map.of("project_id", client.project, "costs",
                Map.of("a", price(1, 2), "b", price(1, 2)))).extract().path("ids");
        TraceClient other = new TraceClient("other");
        List<List<String>> otherIds = other.post("/cost/create", Map.of("project_id", other.project, "costs",
                Map.of("a", price(1, 2)))).extract().path("ids");

        client.post("/cost/purge", Map.of("project_id", client.project, "query", Map.of("$expr", Map.of("$eq", List.of(
                Map.of("$getField", "llm_id"), Map.of("$literal", "a")))))).statusCode(400)
                .body("reason", equalTo("Can only purge costs by specifying one or more cost ids"));
        client.post("/cost/purge", Map.of("project_id", client.project, "query", Map.of("$expr", Map.of("$in", List.of(
                Map.of("$getField", "id"), List.of(Map.of("$literal", ids.get(0).get(0)),
                        Map.of("$literal", otherIds.get(0).get(0)))))))).statusCode(200).body("", equalTo(Map.of()));
        client.post("/cost/query", Map.of("project_id", client.project)).body("results", hasSize(1));
        other.post("/cost/query", Map.of("project_id", other.project)).body("results", hasSize(1));
    }

    @Test
    void includeCostsPricesTheUsageWithTheBestPrice() {
        Map<String, Object> old = price(0.001, 0.002);
        old.put("provider_id", "test-provider");
        old.put("effective_date", "2024-01-01T00:00:00Z");
        client.post("/cost/create", Map.of("project_id", client.project, "costs", Map.of("test-llm", old))).statusCode(200);
        Map<String, Object> future = price(1, 1);
        future.put("effective_date", "2030-01-01T00:00:00Z");
        client.post("/cost/create", Map.of("project_id", client.project, "costs", Map.of("test-llm", future))).statusCode(200);

        Map<String, Object> end = client.end("priced", CallQueryApiTest.at(2));
        end.put("summary", Map.of("usage", Map.of("test-llm", Map.of("prompt_tokens", 100, "completion_tokens", 50,
                "total_tokens", 150, "requests", 1), "unpriced-llm", Map.of("input_tokens", 5))));
        client.write(List.of(client.start("priced", "op", CallQueryApiTest.at(1)), client.start("free", "op",
                CallQueryApiTest.at(3))), List.of(end));

        List<Map<String, Object>> calls = client.query(Map.of("include_costs", true));
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> costs = (Map<String, Map<String, Object>>) CallQueryApiTest.weave(calls.get(0))
                .get("costs");
        assertEquals(List.of("test-llm"), List.copyOf(costs.keySet()));
        Map<String, Object> cost = costs.get("test-llm");
        assertEquals(100, cost.get("prompt_tokens"));
        assertEquals(50, cost.get("completion_tokens"));
        assertEquals(150, cost.get("total_tokens"));
        assertEquals(1, cost.get("requests"));
        assertEquals(0.1, ((Number) cost.get("prompt_tokens_total_cost")).doubleValue(), 1e-12);
        assertEquals(0.1, ((Number) cost.get("completion_tokens_total_cost")).doubleValue(), 1e-12);
        assertEquals("project", cost.get("pricing_level"));
        assertEquals(client.project, cost.get("pricing_level_id"));
        assertEquals("USD", cost.get("prompt_token_cost_unit"));
        assertEquals("test-provider", cost.get("provider_id"));
        assertEquals("2024-01-01T00:00:00Z", cost.get("effective_date"));
        assertNull(CallQueryApiTest.weave(calls.get(1)).get("costs"));
        assertNull(CallQueryApiTest.weave(client.query(Map.of()).get(0)).get("costs"));

        client.post("/call/read", Map.of("project_id", client.project, "id", "priced", "include_costs", true))
                .body("call.summary.weave.costs.test-llm.prompt_tokens", equalTo(100));
    }

    @Test
    void aPriceNeedsBothTokenCosts() {
        client.post("/cost/create", Map.of("project_id", client.project, "costs", Map.of("m", Map.of(
                "prompt_token_cost", 1)))).statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "costs", "m", "completion_token_cost")));
    }

    private static Map<String, Object> price(double prompt, double completion) {
        Map<String, Object> price = new LinkedHashMap<>();
        price.put("prompt_token_cost", prompt);
        price.put("completion_token_cost", completion);
        return price;
    }
}
