package org.llmplatform.tracing.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ErrorMappingTest {

    private static final String ADMIN = "Bearer " + PlatformTestResources.ADMIN_KEY;

    @Test
    void malformedJsonIsA422NamingTheBody() {
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"name\": ")
                .post("/admin/users")
                .then().statusCode(422)
                .contentType(ContentType.JSON)
                .body("detail[0].type", equalTo("json_invalid"))
                .body("detail[0].loc[0]", equalTo("body"));
    }

    @Test
    void aWrongTypeIsA422NamingTheField() {
        given().header("Authorization", ADMIN).contentType(ContentType.JSON).body("{\"name\": \"x\", \"admin\": [1]}")
                .post("/admin/users")
                .then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "admin")))
                .body("detail[0].type", equalTo("bool_type"));
    }

    @Test
    void anUnknownRouteIsAJson404() {
        given().header("Authorization", ADMIN).post("/no/such/route")
                .then().statusCode(404).contentType(ContentType.JSON).body("detail", equalTo("Not Found"));
    }

    @Test
    void aWrongMethodIsAJson405() {
        given().header("Authorization", ADMIN).get("/admin/users")
                .then().statusCode(405).contentType(ContentType.JSON).body("reason", startsWith("Method Not Allowed"));
    }

    @Test
    void healthAndServerInfoNeedNoKey() {
        given().get("/health").then().statusCode(200).body("status", equalTo("ok"));
        given().get("/server_info").then().statusCode(200).body("min_required_weave_python_version", equalTo("0.0.1"));
    }

    @Test
    void platformEndpointsAnswer() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/live").then().statusCode(200);
        given().get("/q/metrics").then().statusCode(200);
        given().get("/q/openapi").then().statusCode(200);
    }
}
