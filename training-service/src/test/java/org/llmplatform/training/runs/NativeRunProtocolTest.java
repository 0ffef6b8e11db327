package org.llmplatform.training.runs;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.training.TrainingApi.as;
import static org.llmplatform.training.runs.NativeRunRequests.envelope;
import static org.llmplatform.training.runs.NativeRunRequests.finished;
import static org.llmplatform.training.runs.NativeRunRequests.forward;
import static org.llmplatform.training.runs.NativeRunRequests.forwardBackward;
import static org.llmplatform.training.runs.NativeRunRequests.optimStep;
import static org.llmplatform.training.runs.NativeRunRequests.resolveBody;
import static org.llmplatform.training.runs.NativeRunRequests.spec;
import static org.llmplatform.training.runs.NativeRunRequests.submit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.LearnerStateRef;
import org.llmplatform.model.events.NativeOperationEvent;
import org.llmplatform.model.events.NativeOperationRequested;
import org.llmplatform.support.blob.BlobStore;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.Topic;
import org.llmplatform.training.Trainer;
import org.llmplatform.training.TrainingApi;
import org.llmplatform.training.config.TrainerConfig;
import org.llmplatform.training.outbound.TrainerPublisher;
import org.llmplatform.training.service.AdapterStorage;
import org.llmplatform.training.service.EmbeddedModel;

/**
 * Native runs over real Kafka topics (docs/training-service.md#native-runs-over-kafka): the test is a GPU worker serving
 * the test base model from {@code training.runs.operations}, {@code training.runs.events} and the control orders alone,
 * and a freshly started replica's executor meeting the operations of a run it never started.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class NativeRunProtocolTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

    @Inject
    BlobStore blobs;
    @Inject
    NativeOperationExecutor embeddedExecutor;
    @Inject
    TrainerConfig trainerConfig;
    @Inject
    EmbeddedModel embeddedModel;
    @Inject
    AdapterStorage adapters;
    @Inject
    TrainerPublisher publisher;
    @Inject
    NativeRunOrders orders;

    @Test
    void aGpuWorkerServesARunFromTheTopicsAlone() throws Exception {
        String user = TestIdentities.unique("worker");
        String key = TestIdentities.userWithKey(user);
        String modelId = TrainingApi.registerModel(key, user, "native", "worker-agent", TrainingApi.BASE_MODEL);
        String runId = as(key).body(resolveBody("worker", null, spec(TrainingApi.BASE_MODEL))).post("/v1/training/runs:resolve")
                .then().statusCode(200).extract().path("run_id");

        Map<String, Object> firstCommand = forwardBackward(0, "cross_entropy");
        String first = submit(key, runId, "forward_backward", firstCommand);
        ConsumerRecord<String, String> record = Trainer.awaitRecord(Topics.TRAINING_RUNS_OPERATIONS, first);
        assertEquals(runId, record.key());
        NativeOperationRequested request = JSON.readValue(record.value(), NativeOperationRequested.class);
        assertEquals(0, request.sequenceId());
        assertEquals("forward_backward", request.kind());
        assertEquals(TrainingApi.BASE_MODEL, request.baseModel());
        assertEquals(4, request.spec().path("lora_rank").asInt());
        assertEquals(null, request.initialState());
        assertEquals(null, request.reservedOutputLearnerVersion());
        byte[] command = blobs.get(request.command()).await().indefinitely();
        assertEquals(request.command().sha256(), HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(command)));
        JsonNode sent = JSON.readTree(command);
        assertEquals(firstCommand.get("request_id"), sent.path("request_id").asText());
        assertEquals(JSON.valueToTree(firstCommand.get("batch")), sent.path("batch"));

        emit(runId, first, "gpu-1", 1, NativeOperationEvent.TYPE_RUNNING, null, null, null);
        awaitStatus(key, runId, first, "running");
        as(key).get("/v1/training/runs/{id}/operations/{op}", runId, first).then().body("started_at", notNullValue());
        emit(runId, first, "gpu-1", 2, NativeOperationEvent.TYPE_HEARTBEAT, null, null, null);
        emit(runId, first, "gpu-1", 3, NativeOperationEvent.TYPE_SUCCEEDED, Map.of("operation_id", first, "kind", "forward_backward",
                "metrics", Map.of("loss", 2.5), "produced_gradient", true), null, null);
        // A redelivered number from the same executor changes nothing.
        emit(runId, first, "gpu-1", 3, NativeOperationEvent.TYPE_FAILED, null, null, "internal_error");
        JsonPath done = finished(key, runId, first);
        assertEquals("succeeded", done.getString("status"));
        assertEquals(2.5, done.getDouble("result_summary.metrics.loss"));

        String step = submit(key, runId, "optim_step", optimStep(1));
        assertEquals(1L, JSON.readValue(Trainer.awaitRecord(Topics.TRAINING_RUNS_OPERATIONS, step).value(), NativeOperationRequested.class)
                .reservedOutputLearnerVersion());
        serve(runId, step, Map.of("operation_id", step, "kind", "optim_step", "learner_version", 1), null);
        assertEquals("succeeded", finished(key, runId, step).getString("status"));
        as(key).get("/v1/training/runs/{id}", runId).then().body("committed_learner_version", equalTo(1));

        // A saved state is the worker's blobs, registered by the service; a later load_state is sent them.
        Map<String, Object> saveState = envelope(2);
        saveState.put("checkpoint_name", "after-one-step");
        saveState.put("ttl_seconds", null);
        saveState.put("overwrite", false);
        String save = submit(key, runId, "save_state", saveState);
        LearnerStateRef savedState = new LearnerStateRef(null, "file:///worker/adapter", "file:///worker/m1", "file:///worker/m2", 1);
        serve(runId, save, Map.of("operation_id", save, "kind", "save_state", "archive", JSON.nullNode()), savedState);
        String checkpointId = finished(key, runId, save).getString("result_summary.checkpoint.checkpoint_id");
        assertTrue(checkpointId.startsWith("ckpt_"), checkpointId);
        Map<String, Object> load = envelope(3);
        load.put("source", Map.of("kind", "service_checkpoint", "checkpoint_id", checkpointId));
        load.put("restore_optimizer", true);
        String loaded = submit(key, runId, "load_state", load);
        NativeOperationRequested loadRequest = JSON.readValue(Trainer.awaitRecord(Topics.TRAINING_RUNS_OPERATIONS, loaded).value(),
                NativeOperationRequested.class);
        assertEquals(new LearnerStateRef(checkpointId, "file:///worker/adapter", "file:///worker/m1", "file:///worker/m2", 1),
                loadRequest.loadState());
        serve(runId, loaded, Map.of("operation_id", loaded, "kind", "load_state"), null);
        assertEquals("succeeded", finished(key, runId, loaded).getString("status"));

        // Sampler weights become the served model's next step, announced to the gateways.
        Map<String, Object> sampler = envelope(4);
        sampler.put("checkpoint_name", "step-1");
        sampler.put("ttl_seconds", null);
        sampler.put("publication", Map.of("target", "active", "model_alias", "worker-agent"));
        String publish = submit(key, runId, "save_weights_for_sampler", sampler);
        serve(runId, publish, Map.of("operation_id", publish, "kind", "save_weights_for_sampler", "learner_version", 2),
                new LearnerStateRef(null, "file:///worker/sampler", null, null, null));
        JsonPath published = finished(key, runId, publish);
        assertEquals("wandb-artifact:///" + user + "/native/worker-agent:step1", published.getString("result_summary.checkpoint.checkpoint_id"));
        assertEquals("step1", published.getString("result_summary.generation_id"));
        as(key).get("/v1/preview/models/{id}/checkpoints?order=desc&limit=1", modelId).then().body("data[0].step", equalTo(1));
        JsonNode announced = Trainer.json(Trainer.awaitRecord(Topics.TRAINING_CHECKPOINTS, "file:///worker/sampler").value());
        assertEquals(modelId, announced.path("model_id").asText());
        assertEquals(1, announced.path("step").asInt());

        // A cancel of a running operation reaches the worker as an order; the worker ends it cancelled.
        String cancelled = submit(key, runId, "forward_backward", forwardBackward(5, "cross_entropy"));
        emit(runId, cancelled, "gpu-1", 1, NativeOperationEvent.TYPE_RUNNING, null, null, null);
        awaitStatus(key, runId, cancelled, "running");
        as(key).post("/v1/training/runs/{id}/operations/{op}:cancel", runId, cancelled).then().statusCode(200)
                .body("status", equalTo("running")).body("cancel_requested", equalTo(true));
        JsonNode order = Trainer.json(Trainer.awaitRecord(Topics.TRAINING_JOBS_CONTROL, cancelled).value());
        assertEquals("cancel_operation", order.path("action").asText());
        assertEquals(runId, order.path("run_id").asText());
        emit(runId, cancelled, "gpu-1", 2, NativeOperationEvent.TYPE_CANCELLED, null, null, null);
        assertEquals("cancelled", finished(key, runId, cancelled).getString("status"));

        as(key).post("/v1/training/runs/{id}:close", runId).then().statusCode(200).body("status", equalTo("closed"));
        assertTrue(Trainer.records(Topics.TRAINING_JOBS_CONTROL, runId).stream()
                .anyMatch(control -> "close_run".equals(Trainer.json(control.value()).path("action").asText())));
    }

    @Test
    void anExecutorThatGoesSilentFailsItsRunWithinTheLease() {
        String key = TestIdentities.userWithKey(TestIdentities.unique("worker"));
        String runId = as(key).body(resolveBody("silent", null, spec(TrainingApi.BASE_MODEL))).post("/v1/training/runs:resolve")
                .then().statusCode(200).extract().path("run_id");
        String running = submit(key, runId, "forward_backward", forwardBackward(0, "cross_entropy"));
        String waiting = submit(key, runId, "optim_step", optimStep(1));
        emit(runId, running, "gpu-gone", 1, NativeOperationEvent.TYPE_RUNNING, null, null, null);
        awaitStatus(key, runId, running, "running");

        // training.jobs.heartbeat-lease is 5 s in tests, checked every 0.5 s.
        Instant silentSince = Instant.now();
        JsonPath failed = finished(key, runId, running);
        assertTrue(Duration.between(silentSince, Instant.now()).compareTo(Duration.ofSeconds(15)) < 0);
        assertEquals("failed", failed.getString("status"));
        assertEquals(NativeOperationEvent.LEARNER_LOST, failed.getString("error.code"));
        assertEquals("cancelled", finished(key, runId, waiting).getString("status"));
        as(key).get("/v1/training/runs/{id}", runId).then().body("status", equalTo("failed"));
        as(key).body(forward(2)).post("/v1/training/runs/{id}/forward", runId).then().statusCode(409);
        assertTrue(Trainer.records(Topics.TRAINING_JOBS_CONTROL, runId).stream()
                .anyMatch(control -> "close_run".equals(Trainer.json(control.value()).path("action").asText())));
    }

    @Test
    void aFreshExecutorFailsTheOperationsOfRunsItNeverStartedAndSkipsOnesItTook() throws Exception {
        String key = TestIdentities.userWithKey(TestIdentities.unique("native"));
        String runId = as(key).body(resolveBody("moved", null, spec(TrainingApi.EMBEDDED_BASE_MODEL))).post("/v1/training/runs:resolve")
                .then().statusCode(200).extract().path("run_id");
        String first = submit(key, runId, "forward_backward", forwardBackward(0, "cross_entropy"));
        assertEquals("succeeded", finished(key, runId, first).getString("status"));
        NativeOperationRequested taken = JSON.readValue(Trainer.awaitRecord(Topics.TRAINING_RUNS_OPERATIONS, first).value(),
                NativeOperationRequested.class);
        int eventsOfFirst = Trainer.records(Topics.TRAINING_RUNS_EVENTS, first).size();

        // Redelivered to the executor that ran it: skipped, nothing more reported.
        embeddedExecutor.accept(taken).await().atMost(PATIENCE);
        assertEquals(eventsOfFirst, Trainer.records(Topics.TRAINING_RUNS_EVENTS, first).size());

        // A replica that took the run's partition over after the first one died has no learner for the run's next operation.
        NativeOperationExecutor freshReplica = new NativeOperationExecutor(trainerConfig, embeddedModel, blobs, adapters, publisher, orders,
                JSON);
        NativeOperationRequested next = new NativeOperationRequested(taken.schemaVersion(), "op_after_takeover", runId, 1, "optim_step",
                taken.baseModel(), taken.spec(), null, 0, 1L, taken.command(), null, Instant.now());
        freshReplica.accept(next).await().atMost(PATIENCE);
        NativeOperationEvent lost = JSON.readValue(Trainer.awaitRecord(Topics.TRAINING_RUNS_EVENTS, "op_after_takeover").value(),
                NativeOperationEvent.class);
        assertEquals(NativeOperationEvent.TYPE_FAILED, lost.type());
        assertEquals(NativeOperationEvent.LEARNER_LOST, lost.errorCode());
        assertTrue(!lost.executor().equals(Trainer.json(Trainer.records(Topics.TRAINING_RUNS_EVENTS, first).get(0).value())
                .path("executor").asText()));
    }

    private static void serve(String runId, String operationId, Map<String, Object> result, LearnerStateRef saved) {
        emit(runId, operationId, "gpu-1", 1, NativeOperationEvent.TYPE_RUNNING, null, null, null);
        emit(runId, operationId, "gpu-1", 2, NativeOperationEvent.TYPE_SUCCEEDED, result, saved, null);
    }

    private static void emit(String runId, String operationId, String executor, long seq, String type, Map<String, Object> result,
            LearnerStateRef saved, String errorCode) {
        NativeOperationEvent event = new NativeOperationEvent(NativeOperationEvent.SCHEMA_VERSION, operationId, runId, executor, seq, type,
                result == null ? null : JSON.valueToTree(result), saved, errorCode, errorCode == null ? null : "reported by the worker",
                Instant.now());
        try {
            Topic.send(Topics.TRAINING_RUNS_EVENTS, runId, JSON.writeValueAsString(event));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitStatus(String key, String runId, String operationId, String status) {
        Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).until(() -> status.equals(
                as(key).get("/v1/training/runs/{id}/operations/{op}", runId, operationId).then().extract().path("status")));
    }
}
