package org.llmplatform.tracing.otel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.commons.codec.digest.DigestUtils;
import org.llmplatform.tracing.calls.CallEndRow;
import org.llmplatform.tracing.calls.CallStartRow;
import org.llmplatform.tracing.calls.OversizedColumns;
import org.llmplatform.tracing.calls.WeaveRefs;
import org.llmplatform.tracing.common.Timestamps;
import org.llmplatform.tracing.otel.OtlpModel.Event;
import org.llmplatform.tracing.otel.OtlpModel.Link;
import org.llmplatform.tracing.otel.OtlpModel.ResourceSpans;
import org.llmplatform.tracing.otel.OtlpModel.ScopeSpans;
import org.llmplatform.tracing.otel.OtlpModel.Span;

/**
 * One span as one call (docs/tracing-service.md#span-to-call, the reference's {@code Span.to_call}): ids and times from the
 * span, inputs, output, usage and the well-known attributes from the GenAI, OpenInference, Vercel AI,
 * MLflow, Traceloop and W&B conventions, the whole span kept as {@code otel_dump}.
 */
@ApplicationScoped
public class SpanToCall {

    static final int MAX_OP_NAME_LENGTH = 128;
    static final int MAX_DISPLAY_NAME_LENGTH = 1024;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern TRACE_ID = Pattern.compile("[0-9a-f]{32}");
    private static final Pattern SPAN_ID = Pattern.compile("[0-9a-f]{16}");
    private static final Pattern TOKEN_COUNT = Pattern.compile("\\d{1,18}");
    private static final Pattern STEP = Pattern.compile("-?\\d{1,18}");

    private static final List<String> INPUT_KEYS = List.of("ai.prompt", "gen_ai.prompt", "input.value",
            "mlflow.spanInputs", "gen_ai.input.messages", "pydantic_ai.all_messages", "traceloop.entity.input",
            "gcp.vertex.agent.tool_call_args", "gcp.vertex.agent.llm_request", "events.gen_ai.user.message", "input",
            "inputs");
    private static final List<String> OUTPUT_KEYS = List.of("ai.response", "gen_ai.completion", "output.value",
            "gen_ai.output.messages", "mlflow.spanOutputs", "final_result", "gen_ai.content.completion",
            "traceloop.entity.output", "gcp.vertex.agent.tool_response", "gcp.vertex.agent.llm_response",
            "events.gen_ai.choice", "output", "outputs");
    private static final Map<String, List<String>> USAGE_KEYS = orderedMap(
            "input_tokens", List.of("gen_ai.usage.input_tokens"),
            "prompt_tokens", List.of("gen_ai.usage.prompt_tokens", "llm.token_count.prompt", "ai.usage.promptTokens"),
            "completion_tokens", List.of("gen_ai.usage.completion_tokens", "llm.token_count.completion",
                    "ai.usage.completionTokens"),
            "output_tokens", List.of("gen_ai.usage.output_tokens"),
            "total_tokens", List.of("llm.usage.total_tokens", "llm.token_count.total"));
    private static final Map<String, List<String>> ATTRIBUTE_KEYS = orderedMap(
            "system", List.of("gen_ai.system", "llm.system", "gen_ai.system_instructions", "system_prompt"),
            "kind", List.of("weave.span.kind", "traceloop.span.kind", "openinference.span.kind"),
            "model", List.of("gen_ai.response.model", "gen_ai.request.model", "llm.model_name", "ai.model.id"),
            "provider", List.of("llm.provider", "ai.model.provider"),
            "model_parameters", List.of("gen_ai.request", "llm.invocation_parameters"),
            "agent", List.of("gen_ai.agent.name"),
            "tools", List.of("gen_ai.agent.tools"),
            "operation", List.of("gen_ai.operation.name"));

    private final ObjectMapper json;

    public SpanToCall(ObjectMapper json) {
        this.json = json;
    }

    /** A span that cannot become a call; it is counted in {@code partial_success}, the others are kept. */
    static final class RejectedSpanException extends RuntimeException {
        RejectedSpanException(String message) {
            super(message);
        }
    }

    public record MappedCall(CallStartRow start, CallEndRow end) {
    }

    /** The span as a start and an end part (none when the span has not ended) of a call owned by {@code userId}. */
    MappedCall map(String project, String userId, ResourceSpans resource, ScopeSpans scope, Span span) {
        String spanId = span.spanId();
        check(SPAN_ID.matcher(spanId).matches(), "span_id '" + spanId + "' is not 8 bytes");
        check(TRACE_ID.matcher(span.traceId()).matches(), "span " + spanId + ": trace_id is not 16 bytes");
        check(span.parentSpanId().isEmpty() || SPAN_ID.matcher(span.parentSpanId()).matches(),
                "span " + spanId + ": parent_span_id is not 8 bytes");
        check(!span.name().isEmpty(), "span " + spanId + ": the span has no name");
        check(span.startTimeUnixNano() != 0, "span " + spanId + ": start_time_unix_nano is missing");
        ObjectNode attributes;
        try {
            attributes = AttributeTree.unflatten(span.attributes());
        } catch (AttributeTree.ConflictingKeysException conflict) {
            throw new RejectedSpanException("span " + spanId + ": " + conflict.getMessage());
        }
        OffsetDateTime startedAt = override(attributes, "langfuse.startTime", at(span.startTimeUnixNano()));
        OffsetDateTime endedAt = span.endTimeUnixNano() == 0 ? null
                : override(attributes, "langfuse.endTime", at(span.endTimeUnixNano()));
        String opName = opName(span.name());
        ObjectNode inputs = inputs(attributes, span.events());
        JsonNode output = output(attributes, span.events());
        ObjectNode usage = usage(attributes);
        ObjectNode callAttributes = callAttributes(attributes, usage, inputs, output);
        String threadId = text(attributes, "wandb.thread_id", "gcp.vertex.agent.session_id");
        boolean turn = threadId != null && (truthy(AttributeTree.get(attributes, "wandb.is_turn"))
                || AttributeTree.get(attributes, "gcp.vertex.agent.session_id") != null);
        String runId = text(attributes, "wandb.wb_run_id");
        String displayName = truncate(text(attributes, "wandb.display_name"), MAX_DISPLAY_NAME_LENGTH);
        String parentId = span.parentSpanId().isEmpty() ? null : span.parentSpanId();
        boolean error = span.statusCode() == OtlpModel.STATUS_ERROR;
        String exception = error ? (span.statusMessage() == null ? "" : span.statusMessage()) : null;

        String dump = otelDump(span, resource, scope, attributes, startedAt, endedAt).toString();
        List<String> startColumns = OversizedColumns.fit(callAttributes.toString(), inputs.toString());
        CallStartRow start = new CallStartRow(project, spanId, span.traceId(), parentId, threadId,
                turn ? spanId : null, opName, displayName, displayName == null ? null : now(), startedAt,
                startColumns.get(0), startColumns.get(1), WeaveRefs.collect(inputs), userId,
                runId == null ? null : project + "/" + runId, longValue(attributes, "wandb.wb_run_step"), dump);
        if (endedAt == null) {
            return new MappedCall(start, null);
        }
        ObjectNode summary = NODES.objectNode();
        ObjectNode weave = summary.putObject("weave");
        weave.put("status", error ? "error" : "success");
        weave.put("latency_ms", ChronoUnit.MILLIS.between(startedAt, endedAt));
        weave.put("trace_name", opName);
        if (!usage.isEmpty()) {
            summary.set("usage", usage);
        }
        List<String> endColumns = OversizedColumns.fit(output == null ? null : output.toString(), summary.toString());
        CallEndRow end = new CallEndRow(project, spanId, endedAt, exception, endColumns.get(0), WeaveRefs.collect(output),
                endColumns.get(1), longValue(attributes, "wandb.wb_run_step_end"));
        return new MappedCall(start, end);
    }

    /** The span name, shortened to 128 characters with a hash suffix when longer, as the reference does. */
    static String opName(String name) {
        if (name.length() < MAX_OP_NAME_LENGTH) {
            return name;
        }
        String suffix = ":" + DigestUtils.sha256Hex(name).substring(0, 4);
        return name.substring(0, MAX_OP_NAME_LENGTH - suffix.length()) + suffix;
    }

    private ObjectNode inputs(ObjectNode attributes, List<Event> events) {
        for (String key : INPUT_KEYS) {
            JsonNode value = lookup(attributes, events, key);
            if (value != null) {
                JsonNode parsed = parsed(value);
                if ((key.equals("input") || key.equals("inputs")) && parsed instanceof ObjectNode nested) {
                    return nested;
                }
                ObjectNode inputs = NODES.objectNode();
                inputs.set(key, parsed);
                return inputs;
            }
        }
        return NODES.objectNode();
    }

    private JsonNode output(ObjectNode attributes, List<Event> events) {
        for (String key : OUTPUT_KEYS) {
            JsonNode value = lookup(attributes, events, key);
            if (value != null) {
                JsonNode parsed = parsed(value);
                if (key.equals("output") || key.equals("outputs")) {
                    return parsed;
                }
                ObjectNode output = NODES.objectNode();
                output.set(key, parsed);
                return output;
            }
        }
        return null;
    }

    /** An attribute, or for {@code events.<name>} the attributes of the span's events of that name. */
    private static JsonNode lookup(ObjectNode attributes, List<Event> events, String key) {
        if (!key.startsWith("events.")) {
            return AttributeTree.get(attributes, key);
        }
        String name = key.substring("events.".length());
        ArrayNode found = NODES.arrayNode();
        for (Event event : events) {
            if (event.name().equals(name)) {
                try {
                    found.add(AttributeTree.unflatten(event.attributes()));
                } catch (AttributeTree.ConflictingKeysException conflict) {
                    found.add(flat(event.attributes()));
                }
            }
        }
        return found.isEmpty() ? null : found.size() == 1 ? found.get(0) : found;
    }

    private static ObjectNode usage(ObjectNode attributes) {
        ObjectNode usage = NODES.objectNode();
        USAGE_KEYS.forEach((name, keys) -> {
            for (String key : keys) {
                JsonNode value = AttributeTree.get(attributes, key);
                if (value != null && (value.isNumber() || value.isTextual() && TOKEN_COUNT.matcher(value.asText()).matches())) {
                    usage.put(name, value.asLong());
                    return;
                }
            }
        });
        if (usage.isEmpty()) {
            return usage;
        }
        ObjectNode byModel = NODES.objectNode();
        String model = text(attributes, ATTRIBUTE_KEYS.get("model").toArray(String[]::new));
        byModel.set(model == null ? "usage" : model, usage);
        return byModel;
    }

    private ObjectNode callAttributes(ObjectNode attributes, ObjectNode usage, ObjectNode inputs, JsonNode output) {
        ObjectNode recognised = NODES.objectNode();
        ATTRIBUTE_KEYS.forEach((name, keys) -> {
            for (String key : keys) {
                JsonNode value = AttributeTree.get(attributes, key);
                if (value != null) {
                    recognised.set(name, parsed(value));
                    return;
                }
            }
        });
        JsonNode extra = AttributeTree.get(attributes, "wandb.attributes");
        if (extra != null && parsed(extra) instanceof ObjectNode merged) {
            recognised.setAll(merged);
        }
        boolean nothingRecognised = recognised.isEmpty() && usage.isEmpty() && inputs.isEmpty() && output == null;
        return nothingRecognised ? attributes.deepCopy() : recognised;
    }

    private ObjectNode otelDump(Span span, ResourceSpans resource, ScopeSpans scope, ObjectNode attributes,
            OffsetDateTime startedAt, OffsetDateTime endedAt) {
        ObjectNode dump = NODES.objectNode();
        dump.put("name", span.name());
        ObjectNode context = dump.putObject("context");
        context.put("trace_id", span.traceId());
        context.put("span_id", span.spanId());
        if (span.traceState() != null && !span.traceState().isEmpty()) {
            context.put("trace_state", span.traceState());
        }
        dump.put("kind", OtlpModel.kindName(span.kind()));
        dump.put("parent_id", span.parentSpanId().isEmpty() ? null : span.parentSpanId());
        dump.put("start_time", Timestamps.format(startedAt));
        dump.put("end_time", Timestamps.format(endedAt));
        ObjectNode status = dump.putObject("status");
        status.put("code", OtlpModel.statusName(span.statusCode()));
        status.put("message", span.statusMessage() == null ? "" : span.statusMessage());
        dump.set("attributes", attributes);
        ArrayNode events = dump.putArray("events");
        for (Event event : span.events()) {
            ObjectNode item = events.addObject();
            item.put("name", event.name());
            item.put("timestamp", event.timeUnixNano() == 0 ? null : Timestamps.format(at(event.timeUnixNano())));
            item.set("attributes", flat(event.attributes()));
        }
        ArrayNode links = dump.putArray("links");
        for (Link link : span.links()) {
            ObjectNode item = links.addObject();
            ObjectNode linked = item.putObject("context");
            linked.put("trace_id", link.traceId());
            linked.put("span_id", link.spanId());
            item.set("attributes", flat(link.attributes()));
        }
        ObjectNode resourceDump = dump.putObject("resource");
        resourceDump.set("attributes", flat(resource.resourceAttributes()));
        resourceDump.put("schema_url", resource.schemaUrl() == null ? "" : resource.schemaUrl());
        ObjectNode scopeDump = dump.putObject("instrumentation_scope");
        scopeDump.put("name", scope.scopeName());
        scopeDump.put("version", scope.scopeVersion());
        return dump;
    }

    static ObjectNode flat(List<OtlpModel.Attribute> attributes) {
        ObjectNode flat = NODES.objectNode();
        attributes.forEach(attribute -> flat.set(attribute.key(), attribute.value()));
        return flat;
    }

    /** JSON carried as a string attribute (OpenInference, Vercel AI, MLflow do this) is read back as JSON. */
    private JsonNode parsed(JsonNode value) {
        if (value.isTextual()) {
            String text = value.asText().strip();
            if (text.startsWith("{") || text.startsWith("[")) {
                try {
                    return json.readTree(text);
                } catch (java.io.IOException notJson) {
                    return value;
                }
            }
        }
        return value;
    }

    private static OffsetDateTime override(ObjectNode attributes, String key, OffsetDateTime fromSpan) {
        JsonNode value = AttributeTree.get(attributes, key);
        if (value == null || !value.isTextual()) {
            return fromSpan;
        }
        try {
            return Timestamps.parse(value.asText(), List.of("attributes", key));
        } catch (RuntimeException notATime) {
            return fromSpan;
        }
    }

    private static String text(ObjectNode attributes, String... keys) {
        for (String key : keys) {
            JsonNode value = AttributeTree.get(attributes, key);
            if (value != null && value.isValueNode()) {
                return value.asText();
            }
        }
        return null;
    }

    private static Long longValue(ObjectNode attributes, String key) {
        JsonNode value = AttributeTree.get(attributes, key);
        if (value != null && value.isIntegralNumber()) {
            return value.asLong();
        }
        if (value != null && value.isTextual() && STEP.matcher(value.asText()).matches()) {
            return Long.parseLong(value.asText());
        }
        return null;
    }

    private static boolean truthy(JsonNode value) {
        if (value == null) {
            return false;
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        if (value.isNumber()) {
            return value.doubleValue() != 0;
        }
        return value.isTextual() && (value.asText().equalsIgnoreCase("true") || value.asText().equals("1"));
    }

    private static String truncate(String value, int max) {
        return value == null || value.length() <= max ? value : value.substring(0, max);
    }

    private static OffsetDateTime at(long unixNanos) {
        return Instant.ofEpochSecond(Long.divideUnsigned(unixNanos, 1_000_000_000L),
                Long.remainderUnsigned(unixNanos, 1_000_000_000L)).atOffset(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }

    private static void check(boolean condition, String problem) {
        if (!condition) {
            throw new RejectedSpanException(problem);
        }
    }

    private static Map<String, List<String>> orderedMap(Object... pairs) {
        java.util.LinkedHashMap<String, List<String>> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            @SuppressWarnings("unchecked")
            List<String> keys = (List<String>) pairs[i + 1];
            map.put((String) pairs[i], keys);
        }
        return java.util.Collections.unmodifiableMap(map);
    }
}
