package org.llmplatform.tracing.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.aMapWithSize;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.emptyOrNullString;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ServiceInfoApiTest {

    @Test
    void healthIsExactlyStatusOkWithoutAKey() {
        given().get("/health").then().statusCode(200).contentType("application/json")
                .body("$", aMapWithSize(1)).body("status", equalTo("ok"));
    }

    @Test
    void serverInfoNamesTheMinimumClientAndTheServerVersionWithoutAKey() {
        given().get("/server_info").then().statusCode(200).contentType("application/json")
                .body("$", aMapWithSize(2))
                .body("min_required_weave_python_version", equalTo("0.0.1"))
                .body("trace_server_version", not(emptyOrNullString()));
    }

    @Test
    void anUnknownKeyDoesNotStopThePublicEndpoints() {
        given().header("Authorization", "Bearer no-such-key").get("/health").then().statusCode(200);
        given().header("Authorization", "Bearer no-such-key").get("/server_info").then().statusCode(200);
    }

    @Test
    void theServiceEndpointsOnlyAnswerGet() {
        given().post("/health").then().statusCode(405);
    }
}
