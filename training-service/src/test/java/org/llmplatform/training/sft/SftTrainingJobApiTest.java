package org.llmplatform.training.sft;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.training.TrainingApi.as;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.Trainer;
import org.llmplatform.training.TrainingApi;

/** Supervised fine-tuning jobs as ART's {@code SFTTrainingJobs.create} sends them, and the training file's three ways in. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class SftTrainingJobApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STORY = line("Once upon a time", " there was a red ball.");

    private String user;
    private String key;

    @BeforeEach
    void identity() {
        user = TestIdentities.unique("sam");
        key = TestIdentities.userWithKey(user);
    }

    @Test
    void aJobOnADataUrlTrainsTheNextStepWhoseCheckpointIsServed() {
        String modelId = TrainingApi.registerModel(key, user, "sft", "tutor", TrainingApi.EMBEDDED_BASE_MODEL);
        String file = STORY + line("Once upon a time", " there was a big dog.") + "\n" + STORY;
        // ART's body: model_id, training_data_url, config {batch_size, learning_rate, metric_logging?}
        Map<String, Object> config = new HashMap<>();
        config.put("batch_size", 2);
        config.put("learning_rate", List.of(1e-4, 5e-5));
        config.put("assistant_turns", "all");
        config.put("metric_logging", Map.of("enabled", true, "target_training_step", 1));
        String jobId = create(modelId, dataUrl(file), config).then().statusCode(200).body("status", notNullValue()).extract().path("id");

        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                as(key).get("/v1/preview/training-jobs/{id}", jobId).then().statusCode(200).body("status", equalTo("COMPLETED")));

        JsonPath events = as(key).get("/v1/preview/training-jobs/{id}/events?limit=100", jobId).then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("training_started", "gradient_step", "gradient_step", "training_ended"), events.getList("data.type"));
        assertEquals(2, events.getInt("data[0].data.num_sequences"), "three examples in batches of two");
        assertEquals(1e-4 * 100, events.getDouble("data[1].data.learning_rate"), 1e-12, "each batch its own rate (× the trainer's multiplier)");
        assertTrue(events.getDouble("data[1].data.loss") > 0);
        JsonNode requested = Trainer.json(Trainer.awaitRequest(jobId).value());
        assertEquals("sft", requested.get("kind").asText());
        assertEquals(2, requested.get("schema_version").asInt());
        assertEquals(2, requested.get("sft").get("batch_size").asInt());
        assertEquals("all", requested.get("sft").get("assistant_turns").asText());
        as(key).get("/v1/preview/models/{id}/checkpoints?order=desc&limit=1", modelId).then().statusCode(200)
                .body("data[0].step", equalTo(1)).body("data[0].metrics", hasKey("train/loss"));
        as(key).get("/v1/preview/serving-checkpoints/{entity}/sft/tutor?step=1", user).then().statusCode(200)
                .body("step", equalTo(1)).body("artifact_uri", notNullValue());
    }

    @Test
    void anUploadedFileIsATrainingDataUrlForItsUploaderOnly() {
        String modelId = TrainingApi.registerModel(key, user, "sft", "uploads");
        JsonPath uploaded = as(key).contentType("application/jsonl").body((STORY + STORY).getBytes(StandardCharsets.UTF_8)).post("/v1/preview/files")
                .then().statusCode(200).body("object", equalTo("file")).body("line_count", equalTo(2))
                .body("url", startsWith("training-file:")).extract().jsonPath();

        String jobId = create(modelId, uploaded.getString("url"), null).then().statusCode(200).body("status", equalTo("QUEUED"))
                .body("kind", equalTo("sft")).extract().path("id");

        JsonNode requested = Trainer.json(Trainer.awaitRequest(jobId).value());
        assertEquals(uploaded.getString("sha256"), requested.get("trajectories").get("sha256").asText(), "the job trains on the uploaded bytes");
        assertEquals(List.of(5e-5), JSON.convertValue(requested.get("sft").get("learning_rates"), List.class), "ART's defaults: "
                + "batch size 2, learning rate 5e-5");
        String stranger = TestIdentities.unique("eve");
        String strangerKey = TestIdentities.userWithKey(stranger);
        String strangersModel = TrainingApi.registerModel(strangerKey, stranger, "sft", "uploads");
        as(strangerKey).body(Map.of("model_id", strangersModel, "training_data_url", uploaded.getString("url"))).post("/v1/preview/sft-training-jobs")
                .then().statusCode(422).body("detail[0].loc", contains("body", "training_data_url"))
                .body("detail[0].msg", containsString("not found"));
    }

    @Test
    void aFileOnAWebServerIsFetchedAndAnErrorPageIsRefused() throws Exception {
        String modelId = TrainingApi.registerModel(key, user, "sft", "fetched");
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/train.jsonl", exchange -> {
            byte[] body = STORY.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            create(modelId, base + "/train.jsonl", null).then().statusCode(200).body("status", notNullValue());
            create(modelId, base + "/missing.jsonl", null).then().statusCode(422)
                    .body("detail[0].loc", contains("body", "training_data_url")).body("detail[0].msg", containsString("HTTP 404"));
        } finally {
            server.stop(0);
        }
    }

    @Test
    void badTrainingDataAndConfigAreRefusedNamingTheLineAndTheField() {
        String modelId = TrainingApi.registerModel(key, user, "sft", "refused");
        create(modelId, dataUrl(STORY + "{not json\n"), null).then().statusCode(422)
                .body("detail[0].loc", contains("body", "training_data_url")).body("detail[0].msg", containsString("line 2: not valid JSON"));
        create(modelId, dataUrl("{\"conversation\": []}\n"), null).then().statusCode(422)
                .body("detail[0].msg", containsString("line 1: messages is required"));
        create(modelId, dataUrl("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}\n"), null).then().statusCode(422)
                .body("detail[0].msg", containsString("line 1: messages has no assistant message"));
        create(modelId, dataUrl("\n\n"), null).then().statusCode(422).body("detail[0].msg", containsString("no examples"));
        create(modelId, dataUrl(STORY), Map.of("assistant_turns", "first")).then().statusCode(422)
                .body("detail[0].type", equalTo("literal_error")).body("detail[0].loc", contains("body", "config", "assistant_turns"));
        create(modelId, dataUrl(STORY), Map.of("batch_size", 0)).then().statusCode(422)
                .body("detail[0].loc", contains("body", "config", "batch_size"));
        create(modelId, dataUrl(STORY + STORY + STORY), Map.of("batch_size", 1, "learning_rate", List.of(1e-4, 1e-4))).then().statusCode(422)
                .body("detail[0].loc", contains("body", "config", "learning_rate")).body("detail[0].msg", containsString("2 learning rates for 3 batches"));
        create(modelId, "wandb-artifact:///" + user + "/sft/data:v0", null).then().statusCode(422)
                .body("detail[0].msg", containsString("W&B artifacts cannot be read here"));
        create(modelId, "ftp://example.com/train.jsonl", null).then().statusCode(422)
                .body("detail[0].loc", contains("body", "training_data_url"));
        as(key).body(Map.of("model_id", modelId)).post("/v1/preview/sft-training-jobs").then().statusCode(422)
                .body("detail[0].type", equalTo("missing")).body("detail[0].loc", contains("body", "training_data_url"));
        as(key).contentType("application/jsonl").body((STORY + "[1, 2]\n").getBytes(StandardCharsets.UTF_8)).post("/v1/preview/files").then().statusCode(422)
                .body("detail[0].loc", contains("body")).body("detail[0].msg", containsString("line 2: not a JSON object"));
    }

    private Response create(String modelId, String url, Map<String, Object> config) {
        Map<String, Object> body = new HashMap<>();
        body.put("model_id", modelId);
        body.put("training_data_url", url);
        body.put("config", config);
        return as(key).body(body).post("/v1/preview/sft-training-jobs");
    }

    private static String dataUrl(String content) {
        return "data:application/jsonl;base64," + Base64.getEncoder().encodeToString(content.getBytes(StandardCharsets.UTF_8));
    }

    private static String line(String prompt, String answer) {
        try {
            return JSON.writeValueAsString(Map.of("messages", List.of(Map.of("role", "user", "content", prompt),
                    Map.of("role", "assistant", "content", answer)))) + "\n";
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
