package org.llmplatform.inference.checkpoints;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.llmplatform.model.Topics;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * A checkpoint name the gateway has not registered from {@code training.checkpoints} is looked up at the
 * training-service with the caller's key, so a model the training API acknowledged is servable before its event
 * arrives; a name found there is registered, so the next request costs no lookup.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@QuarkusTestResource(TrainingStandIn.class)
class CheckpointReadThroughTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aStepTheTrainingServiceAcknowledgedIsServedAtOnceAndLookedUpOnlyOnce() throws Exception {
        String user = TestIdentities.unique("rt");
        String key = TestIdentities.userWithKey(user);
        String model = "wandb-artifact:///" + user + "/rl/acknowledged-agent:step2";

        chat(key, model).then().statusCode(200).body("model", equalTo(model));
        chat(key, model).then().statusCode(200);
        given().header("Authorization", "Bearer " + key).urlEncodingEnabled(false)
                .get("/v1/models/" + model).then().statusCode(200).body("id", equalTo(model)).body("parent", equalTo("stories260K"));
        given().header("Authorization", "Bearer " + key).get("/v1/models")
                .then().statusCode(200).body("data.id", hasItem(model));

        assertEquals(List.of(Map.of("uri", "/v1/preview/serving-checkpoints/" + user + "/rl/acknowledged-agent?step=2",
                "authorization", "Bearer " + key)), lookupsOf(user));
    }

    /** The latest step moves with every finished job, and only the training-service knows it at once. */
    @Test
    void theBareNameIsTheTrainingServicesLatestStepEveryTime() throws Exception {
        String user = TestIdentities.unique("rt");
        String key = TestIdentities.userWithKey(user);

        chat(key, "wandb-artifact:///" + user + "/rl/acknowledged-agent").then().statusCode(200);
        chat(key, "wandb-artifact:///" + user + "/rl/acknowledged-agent").then().statusCode(200);

        assertEquals(List.of("/v1/preview/serving-checkpoints/" + user + "/rl/acknowledged-agent",
                        "/v1/preview/serving-checkpoints/" + user + "/rl/acknowledged-agent"),
                lookupsOf(user).stream().map(lookup -> lookup.get("uri")).toList());
        given().header("Authorization", "Bearer " + key).get("/v1/models")
                .then().statusCode(200).body("data.id", hasItem("wandb-artifact:///" + user + "/rl/acknowledged-agent:step3"));
    }

    @Test
    void whileTheTrainingServiceCannotAnswerTheBareNameServesTheLatestStepRegisteredHere() throws Exception {
        String user = TestIdentities.unique("rt");
        String key = TestIdentities.userWithKey(user);
        String bare = "wandb-artifact:///" + user + "/rl/failing-agent";
        CheckpointSaved saved = new CheckpointSaved(CheckpointSaved.SCHEMA_VERSION, "model-1", null, user, "rl", "failing-agent",
                "stories260K", 0, null, Map.of(), null);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, PlatformTestResources.engines().kafkaBootstrapServers()),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(Topics.TRAINING_CHECKPOINTS, "model-1", JSON.writeValueAsString(saved))).get();
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().header("Authorization", "Bearer " + key)
                .get("/v1/models").then().body("data.id", hasItem(bare + ":step0")));

        chat(key, bare).then().statusCode(200).body("model", equalTo(bare));
    }

    @Test
    void aNameTheTrainingServiceDoesNotKnowIsA404AndIsAskedAgainNextTime() throws Exception {
        String user = TestIdentities.unique("rt");
        String key = TestIdentities.userWithKey(user);
        String unknownModel = "wandb-artifact:///" + user + "/rl/nobody:step0";
        String unknownStep = "wandb-artifact:///" + user + "/rl/acknowledged-agent:step9";

        for (String model : List.of(unknownModel, unknownModel, unknownStep)) {
            chat(key, model).then().statusCode(404).body("error.code", equalTo("model_not_found"));
        }
        // not remembered: the model may be registered the next moment, and then it must be served
        assertEquals(3, lookupsOf(user).size());
    }

    @Test
    void aCallerWhoMayNotUseTheEntityIsRefusedWithoutALookup() throws Exception {
        String owner = TestIdentities.unique("rt");
        String stranger = TestIdentities.userWithKey(TestIdentities.unique("rt-other"));

        chat(stranger, "wandb-artifact:///" + owner + "/rl/acknowledged-agent:step1")
                .then().statusCode(404).body("error.code", equalTo("model_not_found"));

        assertEquals(List.of(), lookupsOf(owner));
    }

    @Test
    void aTrainingServiceThatCannotAnswerIsA503NotA404() {
        String user = TestIdentities.unique("rt");
        String key = TestIdentities.userWithKey(user);

        chat(key, "wandb-artifact:///" + user + "/rl/failing-agent:step0")
                .then().statusCode(503).body("error.message", equalTo("Could not check with the training-service whether the model `"
                        + "wandb-artifact:///" + user + "/rl/failing-agent:step0` exists; try again"));
    }

    private static Response chat(String key, String model) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON)
                .body("{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Once upon a time\"}],\"max_tokens\":4}")
                .post("/v1/chat/completions");
    }

    private static List<Map<String, String>> lookupsOf(String user) throws Exception {
        URI standIn = URI.create(ConfigProvider.getConfig().getValue(TrainingStandIn.URL_PROPERTY, String.class));
        String body = HTTP.send(HttpRequest.newBuilder(standIn.resolve("/lookups")).build(), HttpResponse.BodyHandlers.ofString()).body();
        return JSON.readValue(body, new TypeReference<List<Map<String, String>>>() { }).stream()
                .filter(lookup -> lookup.get("uri").startsWith("/v1/preview/serving-checkpoints/" + user + "/"))
                .toList();
    }
}
