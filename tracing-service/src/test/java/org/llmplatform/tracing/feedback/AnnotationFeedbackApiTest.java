package org.llmplatform.tracing.feedback;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/** Annotation feedback is checked against the AnnotationSpec object its annotation_ref names. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class AnnotationFeedbackApiTest {

    private TraceClient client;

    @BeforeEach
    void aFreshProject() {
        client = new TraceClient("annotation");
    }

    private String spec(String name, Map<String, Object> fieldSchema) {
        Map<String, Object> obj = new HashMap<>(Map.of("project_id", client.project, "object_id", name,
                "val", Map.of("name", name, "field_schema", fieldSchema), "builtin_object_class", "AnnotationSpec"));
        String digest = client.post("/obj/create", Map.of("obj", obj)).statusCode(200).extract().path("digest");
        return "weave:///" + client.project + "/object/" + name + ":" + digest;
    }

    private ValidatableResponse annotate(String name, String ref, Object value) {
        Map<String, Object> body = new HashMap<>();
        body.put("project_id", client.project);
        body.put("weave_ref", "weave:///" + client.project + "/call/c1");
        body.put("feedback_type", "wandb.annotation." + name);
        body.put("payload", Map.of("value", value));
        body.put("annotation_ref", ref);
        return client.post("/feedback/create", body);
    }

    private ValidatableResponse count() {
        return client.post("/feedback/query", Map.of("project_id", client.project, "fields", List.of("count(*)")));
    }

    @Test
    void aValueFittingTheSpecIsStored() {
        String rating = spec("rating", Map.of("type", "integer", "minimum", 1, "maximum", 5));
        annotate("rating", rating, 3).statusCode(200).body("payload", equalTo(Map.of("value", 3)));
        String label = spec("label", Map.of("type", "string", "enum", List.of("good", "bad")));
        annotate("label", label, "good").statusCode(200);
        String detail = spec("detail", Map.of("type", "object", "properties", Map.of("score", Map.of("type", "number")),
                "required", List.of("score")));
        annotate("detail", detail, Map.of("score", 0.5, "why", "fine")).statusCode(200);
        count().statusCode(200).body("result[0].'count(*)'", equalTo(3));
    }

    @Test
    void aValueOutsideTheSpecIsRefusedAndNothingIsStored() {
        String rating = spec("rating", Map.of("type", "integer", "minimum", 1, "maximum", 5));
        annotate("rating", rating, 7).statusCode(400).body("reason", matchesPattern(".*AnnotationSpec.*at most 5.*"));
        annotate("rating", rating, "three").statusCode(400).body("reason", matchesPattern(".*type integer.*"));
        String label = spec("label", Map.of("type", "string", "enum", List.of("good", "bad")));
        annotate("label", label, "meh").statusCode(400).body("reason", matchesPattern(".*one of.*"));
        String detail = spec("detail", Map.of("type", "object", "required", List.of("score")));
        annotate("detail", detail, Map.of("why", "x")).statusCode(400).body("reason", matchesPattern(".*required property 'score'.*"));
        count().statusCode(200).body("result[0].'count(*)'", equalTo(0));
    }

    @Test
    void theSpecMustExistAndBeAnAnnotationSpec() {
        annotate("rating", "weave:///" + client.project + "/object/rating:" + "A".repeat(43), 3).statusCode(400)
                .body("reason", matchesPattern("AnnotationSpec not found: .*"));
        String digest = client.post("/obj/create", Map.of("obj", Map.of("project_id", client.project, "object_id", "plain",
                "val", Map.of("field_schema", Map.of())))).statusCode(200).extract().path("digest");
        annotate("plain", "weave:///" + client.project + "/object/plain:" + digest, 3).statusCode(400)
                .body("reason", matchesPattern("annotation_ref does not name an AnnotationSpec: .*"));
        String rating = spec("rating", Map.of("type", "integer"));
        client.post("/obj/delete", Map.of("project_id", client.project, "object_id", "rating")).statusCode(200);
        annotate("rating", rating, 3).statusCode(400);
        count().statusCode(200).body("result[0].'count(*)'", equalTo(0));
    }
}
