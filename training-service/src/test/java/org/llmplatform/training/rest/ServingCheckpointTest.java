package org.llmplatform.training.rest;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.llmplatform.training.TrainingApi.BASE_MODEL;
import static org.llmplatform.training.TrainingApi.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.CheckpointEvents;
import org.llmplatform.training.TrainingApi;

/** What the inference-gateway reads to serve a model it has not yet heard of on {@code training.checkpoints}. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ServingCheckpointTest {

    @Test
    void aJustRegisteredModelServesItsStepZeroAtOnce() {
        String user = TestIdentities.unique("srv");
        String key = TestIdentities.userWithKey(user);
        String id = TrainingApi.registerModel(key, user, "rl", "agent");

        for (String query : new String[] {"", "?step=0"}) {
            as(key).get("/v1/preview/serving-checkpoints/{entity}/rl/agent" + query, user)
                    .then().statusCode(200)
                    .body("schema_version", equalTo(1))
                    .body("model_id", equalTo(id))
                    .body("entity", equalTo(user))
                    .body("project", equalTo("rl"))
                    .body("model_name", equalTo("agent"))
                    .body("base_model", equalTo(BASE_MODEL))
                    .body("step", equalTo(0))
                    .body("artifact_uri", nullValue());
        }
    }

    @Test
    void aSavedStepIsServedByNumberAndAsTheLatest() {
        String user = TestIdentities.unique("srv");
        String key = TestIdentities.userWithKey(user);
        String id = TrainingApi.registerModel(key, user, "rl", "agent");
        CheckpointEvents.publishSaved(id, 1, Map.of("train/loss", 0.5));
        Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> as(key)
                .get("/v1/preview/models/{id}/checkpoints", id).then().body("data.step", hasItem(1)));

        as(key).get("/v1/preview/serving-checkpoints/{entity}/rl/agent?step=1", user)
                .then().statusCode(200).body("step", equalTo(1)).body("artifact_uri", equalTo("file:///checkpoints/" + id + "/step1"));
        as(key).get("/v1/preview/serving-checkpoints/{entity}/rl/agent", user)
                .then().statusCode(200).body("step", equalTo(1));
        as(key).get("/v1/preview/serving-checkpoints/{entity}/rl/agent?step=0", user)
                .then().statusCode(200).body("step", equalTo(0));
    }

    @Test
    void anUnknownStepOrModelIsA404() {
        String user = TestIdentities.unique("srv");
        String key = TestIdentities.userWithKey(user);
        TrainingApi.registerModel(key, user, "rl", "agent");

        as(key).get("/v1/preview/serving-checkpoints/{entity}/rl/agent?step=5", user)
                .then().statusCode(404).body("detail", containsString("has no step 5"));
        as(key).get("/v1/preview/serving-checkpoints/{entity}/rl/nobody", user)
                .then().statusCode(404).body("detail", containsString("not found"));
    }

    @Test
    void anotherEntitysModelDoesNotExistForTheCaller() {
        String owner = TestIdentities.unique("srv");
        TrainingApi.registerModel(TestIdentities.userWithKey(owner), owner, "rl", "agent");
        String stranger = TestIdentities.userWithKey(TestIdentities.unique("other"));

        as(stranger).get("/v1/preview/serving-checkpoints/{entity}/rl/agent", owner)
                .then().statusCode(404).body("detail", containsString("not found"));
    }

    @Test
    void aStepThatIsNotANaturalNumberIsA422NamingIt() {
        String user = TestIdentities.unique("srv");
        String key = TestIdentities.userWithKey(user);
        as(key).get("/v1/preview/serving-checkpoints/{entity}/rl/agent?step=latest", user)
                .then().statusCode(422).body("detail[0].type", equalTo("int_parsing")).body("detail[0].loc", contains("query", "step"));
        as(key).get("/v1/preview/serving-checkpoints/{entity}/rl/agent?step=-1", user)
                .then().statusCode(422).body("detail[0].type", equalTo("greater_than_equal"));
    }
}
