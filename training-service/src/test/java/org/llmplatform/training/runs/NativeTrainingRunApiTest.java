package org.llmplatform.training.runs;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.llmplatform.training.TrainingApi.as;
import static org.llmplatform.training.runs.NativeRunRequests.STORY;
import static org.llmplatform.training.runs.NativeRunRequests.envelope;
import static org.llmplatform.training.runs.NativeRunRequests.finished;
import static org.llmplatform.training.runs.NativeRunRequests.forward;
import static org.llmplatform.training.runs.NativeRunRequests.matrix;
import static org.llmplatform.training.runs.NativeRunRequests.forwardBackward;
import static org.llmplatform.training.runs.NativeRunRequests.optimStep;
import static org.llmplatform.training.runs.NativeRunRequests.resolveBody;
import static org.llmplatform.training.runs.NativeRunRequests.row;
import static org.llmplatform.training.runs.NativeRunRequests.rows;
import static org.llmplatform.training.runs.NativeRunRequests.spec;
import static org.llmplatform.training.runs.NativeRunRequests.submit;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.TrainingApi;

/**
 * The native training API driven the way ART's {@code TrainingRuns} client drives it (art/serverless/client.py: the
 * resolve body with the wire spec, each command as {@code _NativePublicWireAdapter.command} writes it, operations polled
 * until terminal), on the embedded trainer's stories260K.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class NativeTrainingRunApiTest {

    @Test
    void forwardBackwardAndOptimStepLowerTheLossAndSampledWeightsAreServed() {
        String user = TestIdentities.unique("native");
        String key = TestIdentities.userWithKey(user);
        String modelId = TrainingApi.registerModel(key, user, "native", "agent", TrainingApi.EMBEDDED_BASE_MODEL);
        Map<String, Object> spec = spec(TrainingApi.EMBEDDED_BASE_MODEL);
        JsonPath run = as(key).body(resolveBody("resolve-1", "agent-run", spec)).post("/v1/training/runs:resolve")
                .then().statusCode(200)
                .body("run_name", equalTo("agent-run")).body("status", equalTo("open")).body("next_sequence_id", equalTo(0))
                .body("projected_learner_version", equalTo(0)).body("committed_learner_version", equalTo(0))
                .extract().jsonPath();
        assertEquals(spec, run.getMap("spec"));
        String runId = run.getString("run_id");
        as(key).body(resolveBody("resolve-1", "agent-run", spec)).post("/v1/training/runs:resolve")
                .then().statusCode(200).body("run_id", equalTo(runId));

        List<Double> losses = new ArrayList<>();
        List<String> forwardIds = new ArrayList<>();
        int sequence = 0;
        for (int step = 0; step < 3; step++) {
            JsonPath forward = finished(key, runId, submit(key, runId, "forward_backward", forwardBackward(sequence++, "cross_entropy")));
            assertEquals("succeeded", forward.getString("status"));
            losses.add(forward.getDouble("result_summary.loss.value"));
            forwardIds.add(forward.getString("operation_id"));
            assertEquals("cross_entropy_v1", forward.getString("result_summary.loss.contract_id"));
            assertEquals(STORY.length - 1, forward.getInt("result_summary.training.accepted_trainable_tokens"));
            assertEquals(0, forward.getInt("result_summary.packing.padding_tokens"));
            assertEquals(List.of("story"), forward.getList("result_summary.token_logprobs.matrix_id"));

            JsonPath optim = finished(key, runId, submit(key, runId, "optim_step", optimStep(sequence++)));
            assertEquals("succeeded", optim.getString("status"));
            assertEquals(step, optim.getInt("learner_parent_version"));
            assertEquals(step + 1, optim.getInt("reserved_output_learner_version"));
            assertEquals(step + 1, optim.getInt("result_summary.learner_version"));
            assertEquals(List.of(forwardIds.get(step)), optim.getList("result_summary.contributing_operation_ids"));
        }
        assertThat("loss after two steps, from " + losses, losses.get(2), lessThan(losses.get(0) - 0.05));
        as(key).get("/v1/training/runs/{id}", runId).then().statusCode(200)
                .body("next_sequence_id", equalTo(sequence)).body("committed_learner_version", equalTo(3));

        Map<String, Object> save = envelope(sequence++);
        save.put("checkpoint_name", "step-3");
        save.put("ttl_seconds", null);
        save.put("publication", Map.of("target", "active", "model_alias", "agent"));
        JsonPath sampler = finished(key, runId, submit(key, runId, "save_weights_for_sampler", save));
        assertEquals("succeeded", sampler.getString("status"));
        assertEquals("wandb-artifact:///" + user + "/native/agent:step1", sampler.getString("result_summary.checkpoint.checkpoint_id"));
        assertEquals(3, sampler.getInt("result_summary.learner_version"));
        assertEquals("agent", sampler.getString("result_summary.model_alias"));
        as(key).get("/v1/preview/models/{id}/checkpoints", modelId).then().statusCode(200).body("data.step", hasItem(1));
        as(key).get("/v1/preview/serving-checkpoints/{entity}/native/agent", user).then().statusCode(200)
                .body("step", equalTo(1)).body("artifact_uri", notNullValue());

        as(key).body(Map.of("request_id", "close-1")).post("/v1/training/runs/{id}:close", runId)
                .then().statusCode(200).body("status", equalTo("closed"));
        as(key).body(forwardBackward(sequence, "cross_entropy")).post("/v1/training/runs/{id}/forward_backward", runId)
                .then().statusCode(409).body("detail", containsString("closed"));
    }

    @Test
    void aSavedStateLoadsBackWithItsOptimizerAndStartsANewRun() {
        String user = TestIdentities.unique("native");
        String key = TestIdentities.userWithKey(user);
        String runId = as(key).body(resolveBody("state-run", null, spec(TrainingApi.EMBEDDED_BASE_MODEL))).post("/v1/training/runs:resolve")
                .then().statusCode(200).body("run_name", nullValue()).extract().path("run_id");
        int sequence = 0;
        finished(key, runId, submit(key, runId, "forward_backward", forwardBackward(sequence++, "cross_entropy")));
        finished(key, runId, submit(key, runId, "optim_step", optimStep(sequence++)));
        double savedLoss = finished(key, runId, submit(key, runId, "forward", forward(sequence++))).getDouble("result_summary.metrics.loss");

        Map<String, Object> saveState = envelope(sequence++);
        saveState.put("checkpoint_name", "after-one-step");
        saveState.put("ttl_seconds", null);
        saveState.put("overwrite", false);
        JsonPath saved = finished(key, runId, submit(key, runId, "save_state", saveState));
        assertEquals("succeeded", saved.getString("status"));
        String checkpointId = saved.getString("result_summary.checkpoint.checkpoint_id");
        assertEquals(1, saved.getInt("result_summary.checkpoint.learner_version"));
        assertTrue(saved.getMap("result_summary").containsKey("archive"));
        assertEquals(null, saved.getMap("result_summary").get("archive"));

        Map<String, Object> again = new LinkedHashMap<>(saveState);
        again.putAll(envelope(sequence++));
        JsonPath taken = finished(key, runId, submit(key, runId, "save_state", again));
        assertEquals("failed", taken.getString("status"));
        assertEquals("checkpoint_exists", taken.getString("error.code"));

        finished(key, runId, submit(key, runId, "forward_backward", forwardBackward(sequence++, "cross_entropy")));
        finished(key, runId, submit(key, runId, "optim_step", optimStep(sequence++)));
        double movedLoss = finished(key, runId, submit(key, runId, "forward", forward(sequence++))).getDouble("result_summary.metrics.loss");
        assertThat(movedLoss, lessThan(savedLoss));

        Map<String, Object> load = envelope(sequence++);
        load.put("restore_optimizer", true);
        load.put("source", Map.of("kind", "service_checkpoint", "checkpoint_id", checkpointId));
        JsonPath loaded = finished(key, runId, submit(key, runId, "load_state", load));
        assertEquals("succeeded", loaded.getString("status"));
        assertTrue(loaded.getBoolean("result_summary.optimizer_restored"));
        assertEquals(loaded.getInt("learner_parent_version") + 1, loaded.getInt("reserved_output_learner_version"));
        double reloadedLoss = finished(key, runId, submit(key, runId, "forward", forward(sequence++))).getDouble("result_summary.metrics.loss");
        assertThat(reloadedLoss, closeTo(savedLoss, 1e-4));

        Map<String, Object> resumed = resolveBody("resumed-run", null, spec(TrainingApi.EMBEDDED_BASE_MODEL));
        resumed.put("initial_state", Map.of("source", Map.of("kind", "service_checkpoint", "checkpoint_id", checkpointId),
                "restore_optimizer", false));
        String resumedRun = as(key).body(resumed).post("/v1/training/runs:resolve").then().statusCode(200).extract().path("run_id");
        double resumedLoss = finished(key, resumedRun, submit(key, resumedRun, "forward", forward(0))).getDouble("result_summary.metrics.loss");
        assertThat(resumedLoss, closeTo(savedLoss, 1e-4));

        String stranger = TestIdentities.userWithKey(TestIdentities.unique("other"));
        as(stranger).get("/v1/training/runs/{id}", runId).then().statusCode(404);
        Map<String, Object> stolen = resolveBody("steal", null, spec(TrainingApi.EMBEDDED_BASE_MODEL));
        stolen.put("initial_state", Map.of("source", Map.of("kind", "service_checkpoint", "checkpoint_id", checkpointId)));
        as(stranger).body(stolen).post("/v1/training/runs:resolve").then().statusCode(422)
                .body("detail[0].loc", contains("body", "initial_state", "source", "checkpoint_id"));
    }

    @Test
    void aWaitingOperationIsCancelledAndCommandsRunInSequenceOnce() {
        String key = TestIdentities.userWithKey(TestIdentities.unique("native"));
        // No executor serves the test base model here: its operations wait, as they would for a GPU worker.
        String runId = as(key).body(resolveBody("waiting", null, spec(TrainingApi.BASE_MODEL))).post("/v1/training/runs:resolve")
                .then().statusCode(200).extract().path("run_id");
        Map<String, Object> first = forwardBackward(0, "cross_entropy");
        String operationId = submit(key, runId, "forward_backward", first);
        as(key).body(first).post("/v1/training/runs/{id}/forward_backward", runId).then().statusCode(200)
                .body("operation_id", equalTo(operationId));
        Map<String, Object> reused = forwardBackward(0, "cross_entropy");
        reused.put("return_token_logprobs", false);
        reused.put("request_id", first.get("request_id"));
        as(key).body(reused).post("/v1/training/runs/{id}/forward_backward", runId).then().statusCode(409)
                .body("detail", containsString("request_id"));
        as(key).body(optimStep(5)).post("/v1/training/runs/{id}/optim_step", runId).then().statusCode(409)
                .body("detail", equalTo("Expected sequence_id 1, got 5"));
        String optimId = submit(key, runId, "optim_step", optimStep(1));

        as(key).post("/v1/training/runs/{id}/operations/{op}:cancel", runId, operationId).then().statusCode(200)
                .body("status", equalTo("cancelled")).body("cancel_requested", equalTo(true)).body("ended_at", notNullValue());
        as(key).post("/v1/training/runs/{id}/operations/{op}:cancel", runId, operationId).then().statusCode(200)
                .body("status", equalTo("cancelled"));
        as(key).get("/v1/training/runs/{id}/operations/{op}", runId, optimId).then().statusCode(200)
                .body("status", equalTo("admitted")).body("started_at", nullValue());
        as(key).post("/v1/training/runs/{id}:close", runId).then().statusCode(200).body("status", equalTo("closed"));
        as(key).get("/v1/training/runs/{id}/operations/{op}", runId, optimId).then().statusCode(200).body("status", equalTo("cancelled"));
        as(key).post("/v1/training/runs/{id}/operations/{op}:cancel", runId, "op_missing").then().statusCode(404);
    }

    @Test
    void badCommandsAreRefusedNamingTheField() {
        String key = TestIdentities.userWithKey(TestIdentities.unique("native"));
        Map<String, Object> badSpec = spec(TrainingApi.EMBEDDED_BASE_MODEL);
        badSpec.put("lora_target_modules", List.of("q_proj", "lm_head"));
        as(key).body(resolveBody("bad", null, badSpec)).post("/v1/training/runs:resolve").then().statusCode(422)
                .body("detail[0].loc", contains("body", "spec", "lora_target_modules", 1));
        Map<String, Object> noRank = spec(TrainingApi.EMBEDDED_BASE_MODEL);
        noRank.remove("lora_rank");
        as(key).body(resolveBody("bad", null, noRank)).post("/v1/training/runs:resolve").then().statusCode(422)
                .body("detail[0].loc", contains("body", "spec", "lora_rank"));
        String runId = as(key).body(resolveBody("ok", null, spec(TrainingApi.BASE_MODEL))).post("/v1/training/runs:resolve")
                .then().statusCode(200).extract().path("run_id");

        as(key).body(forwardBackward(0, "dpo")).post("/v1/training/runs/{id}/forward_backward", runId).then().statusCode(422)
                .body("detail[0].loc", contains("body", "loss", "name"));
        Map<String, Object> noWeights = forwardBackward(0, "cross_entropy");
        matrix(noWeights).put("rows", rows(noWeights).subList(0, 2));
        as(key).body(noWeights).post("/v1/training/runs/{id}/forward_backward", runId).then().statusCode(422)
                .body("detail[0].loc", contains("body", "batch", "matrices", 0, "rows")).body("detail[0].msg", containsString("loss_weights"));
        Map<String, Object> shortRow = forwardBackward(0, "cross_entropy");
        rows(shortRow).set(0, row("token_ids", "int64", List.of(STORY.length), Map.of("encoding", "dense", "data", List.of(1, 2))));
        as(key).body(shortRow).post("/v1/training/runs/{id}/forward_backward", runId).then().statusCode(422)
                .body("detail[0].loc", contains("body", "batch", "matrices", 0, "rows", 0, "values", "data"));
        Map<String, Object> noRate = envelope(0);
        noRate.put("optimizer", Map.of("beta1", 0.9));
        as(key).body(noRate).post("/v1/training/runs/{id}/optim_step", runId).then().statusCode(422)
                .body("detail[0].loc", contains("body", "optimizer", "learning_rate"));
        Map<String, Object> noSequence = optimStep(0);
        noSequence.remove("sequence_id");
        as(key).body(noSequence).post("/v1/training/runs/{id}/optim_step", runId).then().statusCode(422)
                .body("detail[0].loc", contains("body", "sequence_id"));
        Map<String, Object> unknownModel = envelope(0);
        unknownModel.put("checkpoint_name", "x");
        unknownModel.put("publication", Map.of("target", "active", "model_alias", "nobody"));
        unknownModel.put("served_model_id", "not-for-the-caller-to-say");
        as(key).body(unknownModel).post("/v1/training/runs/{id}/save_weights_for_sampler", runId).then().statusCode(422)
                .body("detail[0].loc", contains("body", "publication", "model_alias"));
        as(key).body(optimStep(0)).post("/v1/training/runs/{id}/sample", runId).then().statusCode(404);
        as(key).body(optimStep(0)).post("/v1/training/runs/{id}/optim_step", "run_missing").then().statusCode(404);
        as(key).get("/v1/training/runs/{id}", runId).then().statusCode(200).body("next_sequence_id", equalTo(0));
    }
}
