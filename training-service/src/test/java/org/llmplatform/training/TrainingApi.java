package org.llmplatform.training;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.HashMap;
import java.util.Map;

/** Calls of the training API that several tests make. */
public final class TrainingApi {

    /** A base model the embedded trainer leaves alone, so these tests play the trainer themselves. */
    public static final String BASE_MODEL = "test-base-model";

    /** The base model the embedded trainer trains. */
    public static final String EMBEDDED_BASE_MODEL = "stories260K";

    public static RequestSpecification as(String key) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }

    /** Registers (or finds) a model the way ART does, and returns its id. */
    public static String registerModel(String key, String entity, String project, String name) {
        return registerModel(key, entity, project, name, BASE_MODEL);
    }

    public static String registerModel(String key, String entity, String project, String name, String baseModel) {
        Map<String, Object> body = new HashMap<>();
        body.put("entity", entity);
        body.put("project", project);
        body.put("name", name);
        body.put("base_model", baseModel);
        body.put("return_existing", true);
        return as(key).body(body).post("/v1/preview/models").then().statusCode(200).extract().path("id");
    }

    private TrainingApi() {
    }
}
