package org.llmplatform.tracing.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.llmplatform.tracing.calls.CallSchema;

/**
 * Each call's LLM usage plus that of all its descendants among the given calls, per model, as the reference's
 * {@code aggregate_usage_with_descendants} sums it (docs/tracing-service.md#usage-roll-up): a model's prompt tokens
 * are its {@code prompt_tokens} plus {@code input_tokens}, completion tokens its {@code completion_tokens} plus
 * {@code output_tokens}, a missing {@code total_tokens} is their sum; a model without any count is left out.
 */
final class UsageRollup {

    /** One model's sums; costs stay null unless costs were asked for. */
    static final class ModelUsage {
        long requests;
        long promptTokens;
        long completionTokens;
        long totalTokens;
        long cacheReadInputTokens;
        long cacheCreationInputTokens;
        Double promptCost;
        Double completionCost;
        Double cacheReadCost;
        Double cacheCreationCost;

        ModelUsage copy() {
            ModelUsage copy = new ModelUsage();
            copy.add(this, false);
            copy.promptCost = promptCost;
            copy.completionCost = completionCost;
            copy.cacheReadCost = cacheReadCost;
            copy.cacheCreationCost = cacheCreationCost;
            return copy;
        }

        void add(ModelUsage other, boolean withCosts) {
            requests += other.requests;
            promptTokens += other.promptTokens;
            completionTokens += other.completionTokens;
            totalTokens += other.totalTokens;
            cacheReadInputTokens += other.cacheReadInputTokens;
            cacheCreationInputTokens += other.cacheCreationInputTokens;
            if (withCosts) {
                promptCost = orZero(promptCost) + orZero(other.promptCost);
                completionCost = orZero(completionCost) + orZero(other.completionCost);
                cacheReadCost = orZero(cacheReadCost) + orZero(other.cacheReadCost);
                cacheCreationCost = orZero(cacheCreationCost) + orZero(other.cacheCreationCost);
            }
        }

        ObjectNode toJson(ObjectMapper json) {
            ObjectNode node = json.createObjectNode();
            node.put("requests", requests);
            node.put("prompt_tokens", promptTokens);
            node.put("completion_tokens", completionTokens);
            node.put("total_tokens", totalTokens);
            node.put("cache_read_input_tokens", cacheReadInputTokens);
            node.put("cache_creation_input_tokens", cacheCreationInputTokens);
            node.put("prompt_tokens_total_cost", promptCost);
            node.put("completion_tokens_total_cost", completionCost);
            node.put("cache_read_input_tokens_total_cost", cacheReadCost);
            node.put("cache_creation_input_tokens_total_cost", cacheCreationCost);
            return node;
        }

        private static double orZero(Double value) {
            return value == null ? 0.0 : value;
        }
    }

    /** Calls id → model → usage with descendants, children merged into parents leaves first, in the calls' order. */
    static Map<String, Map<String, ModelUsage>> withDescendants(List<CallSchema> calls, boolean withCosts) {
        Map<String, CallSchema> byId = new LinkedHashMap<>();
        calls.forEach(call -> byId.put(call.id(), call));
        Map<String, Integer> childrenLeft = new LinkedHashMap<>();
        byId.keySet().forEach(id -> childrenLeft.put(id, 0));
        Map<String, String> parentOf = new HashMap<>();
        for (CallSchema call : calls) {
            if (call.parentId() != null && byId.containsKey(call.parentId())) {
                childrenLeft.merge(call.parentId(), 1, Integer::sum);
                parentOf.put(call.id(), call.parentId());
            }
        }
        Map<String, Map<String, ModelUsage>> usage = new LinkedHashMap<>();
        byId.values().forEach(call -> usage.put(call.id(), ownUsage(call.summary(), withCosts)));
        Deque<String> leaves = new ArrayDeque<>();
        childrenLeft.forEach((id, count) -> {
            if (count == 0) {
                leaves.add(id);
            }
        });
        while (!leaves.isEmpty()) {
            String id = leaves.poll();
            String parent = parentOf.get(id);
            if (parent == null) {
                continue;
            }
            Map<String, ModelUsage> target = usage.get(parent);
            usage.get(id).forEach((model, modelUsage) -> {
                ModelUsage existing = target.get(model);
                if (existing == null) {
                    target.put(model, modelUsage.copy());
                } else {
                    existing.add(modelUsage, withCosts);
                }
            });
            if (childrenLeft.merge(parent, -1, Integer::sum) == 0) {
                leaves.add(parent);
            }
        }
        return usage;
    }

    private static Map<String, ModelUsage> ownUsage(JsonNode summary, boolean withCosts) {
        Map<String, ModelUsage> models = new LinkedHashMap<>();
        JsonNode usage = summary == null ? null : summary.get("usage");
        if (usage == null || !usage.isObject()) {
            return models;
        }
        JsonNode costs = withCosts && summary.path("weave").path("costs").isObject() ? summary.path("weave").path("costs") : null;
        for (Iterator<Map.Entry<String, JsonNode>> fields = usage.fields(); fields.hasNext();) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode counts = field.getValue();
            if (!counts.isObject()) {
                continue;
            }
            ModelUsage model = new ModelUsage();
            model.promptTokens = whole(counts.get("prompt_tokens")) + whole(counts.get("input_tokens"));
            model.completionTokens = whole(counts.get("completion_tokens")) + whole(counts.get("output_tokens"));
            model.requests = whole(counts.get("requests"));
            model.totalTokens = whole(counts.get("total_tokens"));
            model.cacheReadInputTokens = whole(counts.get("cache_read_input_tokens"));
            model.cacheCreationInputTokens = whole(counts.get("cache_creation_input_tokens"));
            if (model.totalTokens == 0) {
                model.totalTokens = model.promptTokens + model.completionTokens;
            }
            if (withCosts) {
                JsonNode cost = costs == null ? null : costs.get(field.getKey());
                boolean priced = cost != null && cost.isObject();
                model.promptCost = priced ? decimal(cost.get("prompt_tokens_total_cost")) : 0.0;
                model.completionCost = priced ? decimal(cost.get("completion_tokens_total_cost")) : 0.0;
                model.cacheReadCost = priced ? decimal(cost.get("cache_read_input_tokens_total_cost")) : 0.0;
                model.cacheCreationCost = priced ? decimal(cost.get("cache_creation_input_tokens_total_cost")) : 0.0;
            }
            if (hasUsage(model, withCosts)) {
                models.put(field.getKey(), model);
            }
        }
        return models;
    }

    private static boolean hasUsage(ModelUsage model, boolean withCosts) {
        if (model.requests != 0 || model.promptTokens != 0 || model.completionTokens != 0 || model.totalTokens != 0
                || model.cacheReadInputTokens != 0 || model.cacheCreationInputTokens != 0) {
            return true;
        }
        return withCosts && (model.promptCost != 0 || model.completionCost != 0 || model.cacheReadCost != 0
                || model.cacheCreationCost != 0);
    }

    /** Python's {@code int(value)}, 0 where it would fail. */
    private static long whole(JsonNode value) {
        if (value == null || value.isNull()) {
            return 0;
        }
        if (value.isBoolean()) {
            return value.booleanValue() ? 1 : 0;
        }
        if (value.isNumber()) {
            return value.isIntegralNumber() ? value.longValue() : (long) value.doubleValue();
        }
        if (value.isTextual()) {
            try {
                return Long.parseLong(value.textValue().strip());
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return 0;
    }

    /** Python's {@code float(value)}, 0.0 where it would fail. */
    private static double decimal(JsonNode value) {
        if (value == null || value.isNull()) {
            return 0.0;
        }
        if (value.isBoolean()) {
            return value.booleanValue() ? 1.0 : 0.0;
        }
        if (value.isNumber()) {
            return value.doubleValue();
        }
        if (value.isTextual()) {
            try {
                return Double.parseDouble(value.textValue().strip());
            } catch (NumberFormatException e) {
                return 0.0;
            }
        }
        return 0.0;
    }

    private UsageRollup() {
    }
}
