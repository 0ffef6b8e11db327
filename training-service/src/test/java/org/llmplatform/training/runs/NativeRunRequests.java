package org.llmplatform.training.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.hamcrest.Matchers.equalTo;
import static org.llmplatform.training.TrainingApi.as;

import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.awaitility.Awaitility;

/**
 * Requests of the native training API as ART's {@code TrainingRuns} client builds them (the resolve body with the wire
 * spec, each command as {@code _NativePublicWireAdapter.command} writes it), and the client's polling of an operation.
 */
final class NativeRunRequests {

    /** ART's {@code _PublicTrainingOperation} forbids other fields: these and no more. */
    static final Set<String> OPERATION_FIELDS = Set.of("operation_id", "run_id", "request_id", "sequence_id", "kind", "status",
            "learner_parent_version", "reserved_output_learner_version", "admitted_at", "started_at", "ended_at", "cancel_requested",
            "latest_event_cursor", "result_summary", "result_ref", "error");

    /** A story's token ids in tok512; position t is trained to predict token t + 1. */
    static final int[] STORY = {1, 403, 280, 261, 407, 265, 309, 290, 302, 275, 266, 391, 46, 13};

    static Map<String, Object> spec(String baseModel) {
        Map<String, Object> spec = new HashMap<>();
        spec.put("base_model", baseModel);
        spec.put("dtype", "bfloat16");
        spec.put("lora_rank", 4);
        spec.put("lora_target_modules", List.of("down_proj", "gate_proj", "k_proj", "o_proj", "q_proj", "up_proj", "v_proj"));
        spec.put("seed", 7);
        return spec;
    }

    static Map<String, Object> resolveBody(String requestId, String runName, Map<String, Object> spec) {
        Map<String, Object> body = new HashMap<>();
        body.put("request_id", requestId + "-" + UUID.randomUUID());
        body.put("spec", spec);
        body.put("initial_state", null);
        if (runName != null) {
            body.put("run_name", runName);
        }
        return body;
    }

    static Map<String, Object> envelope(int sequenceId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("request_id", UUID.randomUUID().toString().replace("-", ""));
        body.put("sequence_id", sequenceId);
        return body;
    }

    /** ForwardBackwardRequest(batch=TokenMatrixBatch(...), loss=NamedLossRequest(...)) as the public wire writes it. */
    static Map<String, Object> forwardBackward(int sequenceId, String loss) {
        Map<String, Object> body = envelope(sequenceId);
        List<Object> tokens = new ArrayList<>();
        List<Object> targets = new ArrayList<>();
        for (int t = 0; t < STORY.length; t++) {
            tokens.add(STORY[t]);
            targets.add(t + 1 < STORY.length ? STORY[t + 1] : 0);
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        rows.add(row("token_ids", "int64", List.of(STORY.length), Map.of("encoding", "dense", "data", tokens)));
        rows.add(row("target_token_ids", "int64", List.of(STORY.length, 1), Map.of("encoding", "dense", "data", targets)));
        rows.add(row("loss_weights", "float32", List.of(STORY.length), Map.of("encoding", "spans", "default", 0.0,
                "spans", List.of(Map.of("start", 0, "end", STORY.length - 1, "value", 1.0)))));
        Map<String, Object> matrix = new LinkedHashMap<>();
        matrix.put("kind", "matrix");
        matrix.put("matrix_id", "story");
        matrix.put("rows", rows);
        matrix.put("packing_affinity_id", null);
        body.put("batch", Map.of("kind", "token_matrix", "matrices", List.of(matrix), "routes", List.of()));
        body.put("loss", Map.of("name", loss, "normalize_advantages", true));
        body.put("collect_packing_shapes", false);
        body.put("retain_packed_input", false);
        body.put("return_token_logprobs", true);
        return body;
    }

    static Map<String, Object> forward(int sequenceId) {
        return forwardBackward(sequenceId, "cross_entropy");
    }

    static Map<String, Object> optimStep(int sequenceId) {
        Map<String, Object> body = envelope(sequenceId);
        body.put("optimizer", Map.of("learning_rate", 1e-4, "beta1", 0.9, "beta2", 0.99, "eps", 1e-13, "weight_decay", 0.1,
                "grad_clip_norm", 0.1));
        return body;
    }

    static Map<String, Object> row(String name, String dtype, List<Integer> shape, Map<String, Object> values) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", name);
        row.put("dtype", dtype);
        row.put("shape", shape);
        row.put("values", values);
        return row;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> matrix(Map<String, Object> body) {
        return ((List<Map<String, Object>>) ((Map<String, Object>) body.get("batch")).get("matrices")).get(0);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> rows(Map<String, Object> body) {
        List<Map<String, Object>> rows = new ArrayList<>((List<Map<String, Object>>) matrix(body).get("rows"));
        matrix(body).put("rows", rows);
        return rows;
    }

    static String submit(String key, String runId, String kind, Map<String, Object> body) {
        JsonPath admitted = as(key).body(body).post("/v1/training/runs/{id}/" + kind, runId).then().statusCode(200)
                .body("kind", equalTo(kind)).body("sequence_id", equalTo(body.get("sequence_id")))
                .body("request_id", equalTo(body.get("request_id")))
                .extract().jsonPath();
        assertEquals(OPERATION_FIELDS, Set.copyOf(admitted.getMap("").keySet()));
        return admitted.getString("operation_id");
    }

    /** Polls the operation as RemoteTrainingOperation does until it is terminal. */
    static JsonPath finished(String key, String runId, String operationId) {
        JsonPath[] last = new JsonPath[1];
        try {
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
                last[0] = as(key).get("/v1/training/runs/{id}/operations/{op}", runId, operationId).then().statusCode(200).extract().jsonPath();
                return Set.of("succeeded", "failed", "cancelled").contains(last[0].getString("status"));
            });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            StringBuilder executor = new StringBuilder();
            Thread.getAllStackTraces().forEach((thread, stack) -> {
                if (thread.getName().startsWith("native-run")) {
                    executor.append(thread).append('\n');
                    for (StackTraceElement frame : stack) {
                        executor.append("  ").append(frame).append('\n');
                    }
                }
            });
            throw new AssertionError("operation " + operationId + " is " + (last[0] == null ? null : last[0].prettify()) + "\n" + executor, e);
        }
        JsonPath operation = last[0];
        assertEquals(OPERATION_FIELDS, Set.copyOf(operation.getMap("").keySet()));
        OffsetDateTime admitted = OffsetDateTime.parse(operation.getString("admitted_at"));
        if (operation.getString("started_at") != null) {
            assertTrue(!OffsetDateTime.parse(operation.getString("started_at")).isBefore(admitted));
            assertTrue(!OffsetDateTime.parse(operation.getString("ended_at")).isBefore(OffsetDateTime.parse(operation.getString("started_at"))));
        }
        return operation;
    }

    private NativeRunRequests() {
    }
}
