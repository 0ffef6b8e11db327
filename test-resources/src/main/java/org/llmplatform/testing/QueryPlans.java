package org.llmplatform.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import java.util.stream.StreamSupport;

/**
 * Reads PostgreSQL's {@code EXPLAIN (ANALYZE, FORMAT JSON)}: how many rows a plan visited depends on its shape, not on
 * the machine's speed, so a test can say that a statement reads what it should and not a whole table.
 */
public final class QueryPlans {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The top node of an {@code EXPLAIN (FORMAT JSON)} result, given as its text. */
    public static JsonNode plan(String explained) {
        try {
            return JSON.readTree(explained).get(0).get("Plan");
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not an EXPLAIN (FORMAT JSON) result: " + explained, e);
        }
    }

    /** Rows each node produced or filtered out, times its loops, over the node and everything under it. */
    public static long rowsVisited(JsonNode node) {
        long own = (node.path("Actual Rows").asLong() + node.path("Rows Removed by Filter").asLong()
                + node.path("Rows Removed by Join Filter").asLong()) * node.path("Actual Loops").asLong(1);
        for (JsonNode child : node.path("Plans")) {
            own += rowsVisited(child);
        }
        return own;
    }

    /** The first node, depth first, that writes to {@code table} with {@code operation} ({@code Update}, {@code Delete}, …). */
    public static Optional<JsonNode> writing(JsonNode node, String operation, String table) {
        if (operation.equals(node.path("Operation").asText()) && table.equals(node.path("Relation Name").asText())) {
            return Optional.of(node);
        }
        return StreamSupport.stream(node.path("Plans").spliterator(), false)
                .map(child -> writing(child, operation, table)).flatMap(Optional::stream).findFirst();
    }

    /** The node's input: the child that feeds it rows, not an init plan or a sub plan. */
    public static JsonNode input(JsonNode node) {
        return StreamSupport.stream(node.path("Plans").spliterator(), false)
                .filter(child -> "Outer".equals(child.path("Parent Relationship").asText())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("a node without an outer input: " + node));
    }

    private QueryPlans() {
    }
}
