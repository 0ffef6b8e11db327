package org.llmplatform.tracing.costs;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;
import org.llmplatform.tracing.calls.CallQueryApiTest;

/**
 * The default price table: the shipped {@code default-prices.json} (USD per million tokens) plus configuration (the
 * test profile adds {@code default-priced-llm} at 0.25 per prompt token and 1.5 per completion token, provider
 * {@code test-defaults}, and replaces the shipped {@code mistral-large-latest} by 0.5 and 0.75 per token).
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class DefaultPricesApiTest {

    private static final String LLM = "default-priced-llm";

    @Test
    void aProjectWithoutItsOwnPriceIsCostedAtTheDefaultPrice() {
        TraceClient client = new TraceClient("defprice");
        writeCallWithUsage(client, Map.of("prompt_tokens", 1000, "completion_tokens", 500, "total_tokens", 1500,
                "requests", 2));

        Map<String, Object> cost = costOf(client);
        assertEquals(1000, cost.get("prompt_tokens"));
        assertEquals(500, cost.get("completion_tokens"));
        assertEquals(1500, cost.get("total_tokens"));
        assertEquals(2, cost.get("requests"));
        assertEquals(0.25, ((Number) cost.get("prompt_token_cost")).doubleValue(), 0);
        assertEquals(250.0, ((Number) cost.get("prompt_tokens_total_cost")).doubleValue(), 0);
        assertEquals(750.0, ((Number) cost.get("completion_tokens_total_cost")).doubleValue(), 0);
        assertEquals("default", cost.get("pricing_level"));
        assertEquals("default", cost.get("pricing_level_id"));
        assertEquals("test-defaults", cost.get("provider_id"));
        assertEquals("USD", cost.get("completion_token_cost_unit"));
        assertEquals("1970-01-01T00:00:00Z", cost.get("effective_date"));
        assertEquals("system", cost.get("created_by"));
    }

    @Test
    void anthropicStyleTokenCountsArePricedToo() {
        TraceClient client = new TraceClient("defanthropic");
        writeCallWithUsage(client, Map.of("input_tokens", 4, "output_tokens", 2, "prompt_tokens", 1));

        Map<String, Object> cost = costOf(client);
        assertEquals(5, cost.get("prompt_tokens"));
        assertEquals(2, cost.get("completion_tokens"));
        assertEquals(1.25, ((Number) cost.get("prompt_tokens_total_cost")).doubleValue(), 0);
        assertEquals(3.0, ((Number) cost.get("completion_tokens_total_cost")).doubleValue(), 0);
    }

    @Test
    void theProjectsOwnPriceWinsOverTheDefault() {
        TraceClient client = new TraceClient("defown");
        Map<String, Object> own = new HashMap<>();
        own.put("prompt_token_cost", 0.5);
        own.put("completion_token_cost", 2.0);
        own.put("effective_date", "2024-01-01T00:00:00Z");
        client.post("/cost/create", Map.of("project_id", client.project, "costs", Map.of(LLM, own))).statusCode(200);
        writeCallWithUsage(client, Map.of("prompt_tokens", 10, "completion_tokens", 3));

        Map<String, Object> cost = costOf(client);
        assertEquals("project", cost.get("pricing_level"));
        assertEquals(5.0, ((Number) cost.get("prompt_tokens_total_cost")).doubleValue(), 0);
        assertEquals(6.0, ((Number) cost.get("completion_tokens_total_cost")).doubleValue(), 0);
    }

    @Test
    void defaultPricesAreNeverListedNorPurged() {
        TraceClient client = new TraceClient("deflist");
        client.post("/cost/query", Map.of("project_id", client.project)).statusCode(200).body("results", empty());
        client.post("/cost/query", Map.of("project_id", client.project, "query", Map.of("$expr", Map.of("$eq",
                        List.of(Map.of("$getField", "llm_id"), Map.of("$literal", LLM))))))
                .statusCode(200).body("results", empty());
        String defaultId = UUID.nameUUIDFromBytes(("default-price/" + LLM).getBytes(StandardCharsets.UTF_8)).toString();
        client.post("/cost/purge", Map.of("project_id", client.project, "query", Map.of("$expr", Map.of("$eq",
                List.of(Map.of("$getField", "id"), Map.of("$literal", defaultId)))))).statusCode(200);

        writeCallWithUsage(client, Map.of("prompt_tokens", 1));
        client.post("/call/read", Map.of("project_id", client.project, "id", "used", "include_costs", true))
                .statusCode(200).body("call.summary.weave.costs." + LLM + ".pricing_level", equalTo("default"));
    }

    @Test
    void aWellKnownModelIsCostedAtTheShippedListPricePerMillionTokens() throws IOException {
        JsonNode listed = shippedTable().get("prices").get("gpt-4o-mini");
        TraceClient client = new TraceClient("defshipped");
        writeCallWithUsage(client, "gpt-4o-mini", Map.of("prompt_tokens", 2_000_000, "completion_tokens", 500_000));

        Map<String, Object> cost = costOf(client, "gpt-4o-mini");
        assertEquals(listed.get("prompt").asDouble() * 2, ((Number) cost.get("prompt_tokens_total_cost")).doubleValue(),
                1e-9);
        assertEquals(listed.get("completion").asDouble() / 2,
                ((Number) cost.get("completion_tokens_total_cost")).doubleValue(), 1e-9);
        assertEquals("default", cost.get("pricing_level"));
        assertEquals(listed.get("provider").asText(), cost.get("provider_id"));
        assertEquals(shippedTable().get("as_of").asText() + "T00:00:00Z", cost.get("effective_date"));
    }

    @Test
    void costDefaultsListsTheShippedTableWithItsDateAndSourceAndTheConfiguredEntries() throws IOException {
        JsonNode table = shippedTable();
        TraceClient client = new TraceClient("deflisting");
        JsonNode answer = new ObjectMapper().readTree(given().header("Authorization", "Bearer " + client.key)
                .get("/cost/defaults").then().statusCode(200).extract().asString());

        assertEquals(table.get("as_of").asText(), answer.get("as_of").asText());
        assertEquals(table.get("source").asText(), answer.get("source").asText());
        Map<String, JsonNode> byModel = new HashMap<>();
        answer.get("results").forEach(row -> byModel.put(row.get("llm_id").asText(), row));
        TreeSet<String> expected = new TreeSet<>();
        table.get("prices").fieldNames().forEachRemaining(expected::add);
        expected.add(LLM);
        assertEquals(expected, new TreeSet<>(byModel.keySet()));
        List<String> order = new ArrayList<>();
        answer.get("results").forEach(row -> order.add(row.get("llm_id").asText()));
        assertEquals(List.copyOf(expected), order, "sorted by llm_id");

        JsonNode gpt4o = byModel.get("gpt-4o");
        assertEquals(table.get("prices").get("gpt-4o").get("prompt").asDouble() / 1e6,
                gpt4o.get("prompt_token_cost").asDouble(), 1e-15);
        assertEquals(table.get("prices").get("gpt-4o").get("completion").asDouble() / 1e6,
                gpt4o.get("completion_token_cost").asDouble(), 1e-15);
        assertEquals("default", gpt4o.get("pricing_level").asText());
        assertEquals("USD", gpt4o.get("prompt_token_cost_unit").asText());
        assertEquals(table.get("as_of").asText() + "T00:00:00Z", gpt4o.get("effective_date").asText());
        assertTrue(gpt4o.hasNonNull("id") && gpt4o.hasNonNull("created_at"));

        JsonNode overridden = byModel.get("mistral-large-latest");
        assertEquals(0.5, overridden.get("prompt_token_cost").asDouble(), 0);
        assertEquals(0.75, overridden.get("completion_token_cost").asDouble(), 0);
        assertEquals("1970-01-01T00:00:00Z", overridden.get("effective_date").asText());
        assertEquals("test-defaults", byModel.get(LLM).get("provider_id").asText());
    }

    @Test
    void costDefaultsNeedsAKey() {
        given().get("/cost/defaults").then().statusCode(401);
    }

    private static JsonNode shippedTable() throws IOException {
        try (InputStream in = DefaultPricesApiTest.class.getClassLoader().getResourceAsStream("default-prices.json")) {
            return new ObjectMapper().readTree(in);
        }
    }

    private static void writeCallWithUsage(TraceClient client, Map<String, Object> usage) {
        writeCallWithUsage(client, LLM, usage);
    }

    private static void writeCallWithUsage(TraceClient client, String llmId, Map<String, Object> usage) {
        Map<String, Object> end = client.end("used", CallQueryApiTest.at(2));
        end.put("summary", Map.of("usage", Map.of(llmId, usage)));
        client.write(List.of(client.start("used", "op", CallQueryApiTest.at(1))), List.of(end));
    }

    private static Map<String, Object> costOf(TraceClient client) {
        return costOf(client, LLM);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> costOf(TraceClient client, String llmId) {
        List<Map<String, Object>> calls = client.query(Map.of("include_costs", true));
        Map<String, Map<String, Object>> costs = (Map<String, Map<String, Object>>) CallQueryApiTest.weave(calls.get(0))
                .get("costs");
        assertEquals(List.of(llmId), List.copyOf(costs.keySet()));
        return costs.get(llmId);
    }
}
