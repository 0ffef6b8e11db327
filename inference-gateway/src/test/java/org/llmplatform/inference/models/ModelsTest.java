package org.llmplatform.inference.models;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.chat.Callers;
import org.llmplatform.testing.PlatformTestResources;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ModelsTest {

    private final Callers caller = Callers.fresh("models");

    @Test
    void theCatalogListsTheEmbeddedModelAsAVllmModelCard() {
        caller.request().get("/v1/models").then().statusCode(200)
                .body("object", equalTo("list"))
                .body("data[0].id", equalTo(Callers.MODEL))
                .body("data[0].object", equalTo("model"))
                .body("data[0].owned_by", equalTo("vllm"))
                .body("data[0].root", org.hamcrest.Matchers.equalTo("stories260K.bin"))
                .body("data[0].parent", nullValue())
                .body("data[0].max_model_len", equalTo(512))
                .body("data[0].permission[0].object", equalTo("model_permission"))
                .body("data[0].permission[0].id", startsWith("modelperm-"))
                .body("data[0].permission[0].allow_sampling", equalTo(true));
    }

    @Test
    void aModelIsRetrievedById() {
        caller.request().get("/v1/models/" + Callers.MODEL).then().statusCode(200)
                .body("id", equalTo(Callers.MODEL)).body("max_model_len", equalTo(512));
        caller.request().get("/v1/models/org/unknown").then().statusCode(404)
                .body("error.code", equalTo("model_not_found"))
                .body("error.message", equalTo("The model `org/unknown` does not exist."));
    }

    @Test
    void listingModelsNeedsAKey() {
        io.restassured.RestAssured.given().get("/v1/models").then().statusCode(401);
    }
}
