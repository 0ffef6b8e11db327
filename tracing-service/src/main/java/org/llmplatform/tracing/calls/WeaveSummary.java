package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.OffsetDateTime;

/** The derived {@code summary.weave} of a read call (docs/tracing-service.md#derived-summary). */
final class WeaveSummary {

    /** The facts of one call the derived keys come from. */
    record CallFacts(String opName, String displayName, OffsetDateTime startedAt, OffsetDateTime endedAt,
            String exception) {
    }

    /** Sets status, latency_ms and trace_name or display_name into the stored summary (which it changes). */
    static ObjectNode derive(ObjectNode stored, CallFacts call) {
        ObjectNode summary = stored != null ? stored : JsonNodeFactory.instance.objectNode();
        ObjectNode weave = summary.get("weave") instanceof ObjectNode existing ? existing : summary.objectNode();
        weave.put("status", status(summary, call));
        if (call.startedAt() != null && call.endedAt() != null) {
            weave.put("latency_ms", latencyMillis(call.startedAt(), call.endedAt()));
        }
        if (call.displayName() != null && !call.displayName().isEmpty()) {
            weave.put("display_name", call.displayName());
            weave.remove("trace_name");
        } else {
            weave.remove("display_name");
            String traceName = traceName(call.opName());
            if (traceName != null) {
                weave.put("trace_name", traceName);
            }
        }
        summary.set("weave", weave);
        return summary;
    }

    private static String status(ObjectNode summary, CallFacts call) {
        if (call.exception() != null) {
            return "error";
        }
        if (call.endedAt() == null) {
            return "running";
        }
        JsonNode errors = summary.path("status_counts").path("error");
        return errors.isNumber() && errors.asDouble() > 0 ? "descendant_error" : "success";
    }

    /** Whole milliseconds, floored like Python's timedelta arithmetic. */
    private static long latencyMillis(OffsetDateTime startedAt, OffsetDateTime endedAt) {
        Duration latency = Duration.between(startedAt, endedAt);
        long micros = latency.getSeconds() * 1_000_000L + latency.getNano() / 1_000;
        return Math.floorDiv(micros, 1_000L);
    }

    /** The op's name: the {@code <name>} of an op ref, else op_name as it is. */
    private static String traceName(String opName) {
        if (opName == null || !WeaveRefs.looksLikeRef(opName)) {
            return opName;
        }
        return WeaveRefs.objectName(opName).orElse(null);
    }

    private WeaveSummary() {
    }
}
