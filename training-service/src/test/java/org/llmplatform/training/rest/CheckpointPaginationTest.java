package org.llmplatform.training.rest;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.llmplatform.training.TrainingApi.as;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;
import org.llmplatform.training.CheckpointEvents;
import org.llmplatform.training.TrainingApi;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CheckpointPaginationTest {

    private String user;
    private String key;
    private String modelId;

    /** A model with steps 0 (registration) to 4 (four saved by a trainer). */
    @BeforeEach
    void registerModelWithFiveCheckpoints() {
        user = TestIdentities.unique("ada");
        key = TestIdentities.userWithKey(user);
        modelId = TrainingApi.registerModel(key, user, "rl", "agent");
        for (int step = 1; step <= 4; step++) {
            CheckpointEvents.publishSaved(modelId, step, Map.of("train/reward", step / 10.0));
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                as(key).get("/v1/preview/models/{id}/checkpoints?limit=100", modelId).then().body("data", hasSize(5)));
    }

    @Test
    void pagesFollowEachOtherThroughTheLastId() {
        JsonPath first = page("limit=2");
        assertEquals(List.of(0, 1), first.getList("data.step"));
        assertEquals(first.getString("data[0].id"), first.getString("first_id"));
        assertEquals(first.getString("data[1].id"), first.getString("last_id"));
        assertTrue(first.getBoolean("has_more"));

        JsonPath second = page("limit=2&after=" + first.getString("last_id"));
        assertEquals(List.of(2, 3), second.getList("data.step"));
        assertTrue(second.getBoolean("has_more"));

        JsonPath third = page("limit=2&after=" + second.getString("last_id"));
        assertEquals(List.of(4), third.getList("data.step"));
        assertFalse(third.getBoolean("has_more"));
        assertEquals(0.4f, third.getFloat("data[0].metrics.'train/reward'"));
    }

    @Test
    void theLatestStepIsTheFirstInDescendingOrder() {
        JsonPath latest = page("order=desc&limit=1");
        assertEquals(List.of(4), latest.getList("data.step"));
        assertTrue(latest.getBoolean("has_more"));

        JsonPath rest = page("order=desc&after=" + latest.getString("last_id"));
        assertEquals(List.of(3, 2, 1, 0), rest.getList("data.step"));
        assertFalse(rest.getBoolean("has_more"));
    }

    @Test
    void anEmptyPageHasNoFirstOrLastId() {
        String last = page("order=desc&limit=1").getString("data[0].id");
        as(key).get("/v1/preview/models/{id}/checkpoints?after=" + last, modelId)
                .then().statusCode(200)
                .body("data", hasSize(0))
                .body("first_id", nullValue())
                .body("last_id", nullValue())
                .body("has_more", equalTo(false));
    }

    @Test
    void badPageParametersAreNamedInA422() {
        expectInvalidQuery("limit=0", "limit", "greater_than_equal");
        expectInvalidQuery("limit=101", "limit", "less_than_equal");
        expectInvalidQuery("limit=many", "limit", "int_parsing");
        expectInvalidQuery("order=newest", "order", "literal_error");
        expectInvalidQuery("after=step-3", "after", "uuid_parsing");
    }

    @Test
    void aCursorFromAnotherModelIsRefused() {
        String otherModel = TrainingApi.registerModel(key, user, "rl", "other");
        String foreignCursor = as(key).get("/v1/preview/models/{id}/checkpoints", otherModel).then().extract().path("data[0].id");

        expectInvalidQuery("after=" + foreignCursor, "after", "value_error");
    }

    private JsonPath page(String query) {
        return as(key).get("/v1/preview/models/{id}/checkpoints?" + query, modelId)
                .then().statusCode(200).body("object", equalTo("list")).extract().jsonPath();
    }

    private void expectInvalidQuery(String query, String parameter, String type) {
        as(key).get("/v1/preview/models/{id}/checkpoints?" + query, modelId)
                .then().statusCode(422)
                .body("detail[0].loc", contains("query", parameter))
                .body("detail[0].type", equalTo(type));
    }
}
