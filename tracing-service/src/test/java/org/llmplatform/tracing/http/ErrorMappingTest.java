package org.llmplatform.tracing.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ErrorMappingTest {

    @TestHTTPResource("/")
    URL service;

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
    void anOverlongUriIsAJson414NamingTheLimit() {
        given().header("Authorization", ADMIN).get("/admin/users/someone/api-keys?q=" + "a".repeat(20_000))
                .then().statusCode(414).contentType(ContentType.JSON).body("reason", startsWith("Request URI too long"));
    }

    @Test
    void invalidPercentEncodingInTheQueryIsAJson400() throws Exception {
        try (Socket socket = new Socket(service.getHost(), service.getPort())) {
            socket.getOutputStream().write(("GET /admin/users/someone/api-keys?name=%ZZ HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: " + ADMIN + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
            assertTrue(answer.contains("{\"reason\":\"Malformed request URI: Malformed escape pair at index"), answer);
        }
    }

    @Test
    void aNulInAPathParameterIsA400() {
        given().header("Authorization", ADMIN).urlEncodingEnabled(false).get("/admin/users/a%00b/api-keys")
                .then().statusCode(400).contentType(ContentType.JSON).body("reason", startsWith("Malformed request URI"));
    }

    @Test
    void aMultipartBodyWithoutItsBoundaryIsA400() {
        given().header("Authorization", ADMIN).contentType("multipart/form-data; boundary=b0undary").body("no boundary here".getBytes(StandardCharsets.US_ASCII))
                .post("/file/create")
                .then().statusCode(400).contentType(ContentType.JSON).body("reason", startsWith("Malformed multipart body"));
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
