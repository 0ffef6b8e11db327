package org.llmplatform.inference.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.hamcrest.Matcher;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ErrorShapeTest {

    private static final String ADMIN = "Bearer " + PlatformTestResources.ADMIN_KEY;
    private static final Matcher<Object> STRING_OR_NULL = anyOf(nullValue(), instanceOf(String.class));

    @Test
    void aMissingKeyIsA401InTheOpenAiShape() {
        given().get("/v1/usage?project=someone/p")
                .then().statusCode(401).contentType(ContentType.JSON)
                .body("error.message", notNullValue())
                .body("error.type", equalTo("authentication_error"))
                .body("error.code", STRING_OR_NULL)
                .body("error.param", nullValue());
    }

    @Test
    void aWrongKeyIsA401WithAStringCode() {
        given().header("Authorization", "Bearer not-a-key").get("/v1/usage?project=someone/p")
                .then().statusCode(401)
                .body("error.message", equalTo("Invalid API key"))
                .body("error.code", equalTo("invalid_api_key"));
    }

    @Test
    void aMissingQueryParameterIsA422NamingIt() {
        given().header("Authorization", ADMIN).get("/v1/usage")
                .then().statusCode(422).contentType(ContentType.JSON)
                .body("detail[0].type", equalTo("missing"))
                .body("detail[0].loc", equalTo(List.of("query", "project")))
                .body("error.message", equalTo("query.project: Field required"))
                .body("error.type", equalTo("invalid_request_error"))
                .body("error.param", equalTo("project"))
                .body("error.code", equalTo("missing"));
    }

    @Test
    void malformedJsonIsA422WithDetailAndError() {
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"temperature\": ")
                .post("/test/probe")
                .then().statusCode(422)
                .body("detail[0].type", equalTo("json_invalid"))
                .body("detail[0].loc[0]", equalTo("body"))
                .body("error.message", startsWith("body."))
                .body("error.type", equalTo("invalid_request_error"))
                .body("error.param", nullValue())
                .body("error.code", equalTo("json_invalid"));
    }

    @Test
    void aWrongTypeInTheBodyIsA422NamingTheField() {
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"temperature\": \"hot\"}")
                .post("/test/probe")
                .then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "temperature")))
                .body("detail[0].type", equalTo("int_type"))
                .body("error.param", equalTo("temperature"))
                .body("error.code", equalTo("int_type"));
    }

    @Test
    void anUnknownRouteIsAnOpenAi404() {
        given().header("Authorization", ADMIN).get("/v1/no-such-route")
                .then().statusCode(404).contentType(ContentType.JSON)
                .body("error.message", equalTo("Invalid URL (GET /v1/no-such-route)"))
                .body("error.type", equalTo("not_found_error"))
                .body("error.code", STRING_OR_NULL);
    }

    @Test
    void aWrongMethodIsAnOpenAi405() {
        given().header("Authorization", ADMIN).post("/v1/usage?project=a/b")
                .then().statusCode(405).contentType(ContentType.JSON)
                .body("error.type", equalTo("invalid_request_error"))
                .body("error.code", STRING_OR_NULL);
    }

    @Test
    void theServiceBecomesReady() {
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP")));
        given().get("/q/health/live").then().statusCode(200);
    }
}
