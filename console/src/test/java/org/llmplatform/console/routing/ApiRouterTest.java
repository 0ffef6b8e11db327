package org.llmplatform.console.routing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = EchoUpstreams.class, restrictToAnnotatedClass = true)
class ApiRouterTest {

    @Test
    void aTracingRequestReachesTheTracingServiceWithItsKeyPathQueryAndBody() {
        given().header("Authorization", "Bearer k-1").contentType(ContentType.JSON).body("{\"project_id\":\"a/b\"}")
                .post("/call/read?x=1").then().statusCode(201)
                .body("service", equalTo("tracing")).body("method", equalTo("POST")).body("uri", equalTo("/call/read?x=1"))
                .body("authorization", equalTo("Bearer k-1")).body("body", equalTo("{\"project_id\":\"a/b\"}"));
    }

    @Test
    void aJsonLinesAnswerComesBackWhole() {
        given().body("{}").post("/calls/stream_query").then().statusCode(200)
                .contentType("application/jsonl")
                .body(equalTo("{\"service\":\"tracing\",\"n\":1}\n{\"n\":2}\n"));
    }

    @Test
    void theLongestPrefixWinsSoPreviewAndTrainingRunsGoToTrainingAndTheRestOfV1ToInference() {
        given().get("/v1/preview/training-jobs").then().body("service", equalTo("training"))
                .body("uri", equalTo("/v1/preview/training-jobs"));
        // ART's native training API (TrainingRuns) under the same base URL as its serverless backend.
        given().urlEncodingEnabled(false).body("{}").post("/v1/training/runs:resolve").then().body("service", equalTo("training"))
                .body("uri", equalTo("/v1/training/runs:resolve"));
        // The inference stand-in is down: the 502, in OpenAI's shape, shows the request went there.
        given().body("{}").post("/v1/chat/completions").then().statusCode(502).contentType(ContentType.JSON)
                .body("error.message", containsString("did not answer")).body("error.type", equalTo("bad_gateway"));
        given().get("/projects").then().body("service", equalTo("tracing"));
    }

    @Test
    void aReplicaThatIsDownCostsNoRequestTheOtherReplicaAnswersThemAll() {
        for (int i = 0; i < 4; i++) {
            given().contentType(ContentType.JSON).body("{\"n\":" + i + "}").post("/v1/preview/training-jobs").then().statusCode(201)
                    .body("service", equalTo("training")).body("body", equalTo("{\"n\":" + i + "}"));
        }
    }

    @Test
    void aPrefixMatchesWholePathSegmentsOnly() {
        given().get("/callsx").then().statusCode(404);
    }

    @Test
    void aServiceThatDoesNotAnswerGivesA502InItsApisErrorShape() {
        given().get("/automations").then().statusCode(502).contentType(ContentType.JSON)
                .body("detail", containsString("did not answer"));
    }

    @Test
    void thePagesAndTheirLibrariesAreServedByTheConsoleItself() {
        given().get("/").then().statusCode(200).body(containsString("<title>LLM platform console</title>"));
        given().get("/assets/app.js").then().statusCode(200).header("Cache-Control", containsString("max-age=0"));
        given().get("/webjars/echarts/5.3.1/dist/echarts.esm.min.js").then().statusCode(200);
        given().get("/q/health/ready").then().statusCode(200);
    }
}
