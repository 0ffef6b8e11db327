package org.llmplatform.support.app;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;

/** ErrorMappers, HttpLayerErrors and UriValidation: whatever goes wrong leaves as JSON naming the problem. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ErrorAnswersTest {

    @TestHTTPResource("/")
    URI service;

    @Test
    void anApiExceptionKeepsItsStatusAndMessage() {
        given().get("/probe/conflict").then().statusCode(409).contentType(ContentType.JSON)
                .body("detail", equalTo("The order was placed already"));
    }

    @Test
    void aBodyJacksonCannotReadIsA422NamingTheField() {
        given().contentType(ContentType.JSON).body("{\"item\": \"tea\", \"count\": \"many\"}").post("/probe/orders")
                .then().statusCode(422).contentType(ContentType.JSON)
                .body("detail[0].type", equalTo("int_type"))
                .body("detail[0].loc", equalTo(List.of("body", "count")));
        given().contentType(ContentType.JSON).body("{\"item\": ").post("/probe/orders")
                .then().statusCode(422).contentType(ContentType.JSON)
                .body("detail[0].type", equalTo("json_invalid"))
                .body("detail[0].msg", startsWith("JSON decode error"));
        given().contentType(ContentType.JSON).body("{\"item\": \"tea\", \"count\": 2}").post("/probe/orders")
                .then().statusCode(200).body("count", equalTo(2));
    }

    @Test
    void aBadQueryParameterIsA422NamingIt() {
        given().queryParam("limit", "ten").get("/probe/page").then().statusCode(422)
                .body("detail[0].type", equalTo("int_parsing"))
                .body("detail[0].loc", equalTo(List.of("query", "limit")))
                .body("detail[0].input", equalTo("ten"));
        given().get("/probe/page").then().statusCode(200).body("limit", equalTo(20));
    }

    @Test
    void aPathNoEndpointServesIsAJson404() {
        given().get("/no/such/thing").then().statusCode(404).contentType(ContentType.JSON).body("detail", equalTo("Not Found"));
    }

    @Test
    void malformedAndOversizedRequestsGetJsonBodies() throws IOException {
        // Quarkus' own check would answer an empty 400: UriValidation hands the check to HttpLayerErrors.
        String malformed = rawGet("/probe/page?limit=%zz");
        assertTrue(malformed.startsWith("HTTP/1.1 400"), malformed);
        assertTrue(malformed.contains("application/json") && malformed.contains("Malformed request URI"), malformed);
        String nul = rawGet("/probe/page?limit=1%00");
        assertTrue(nul.startsWith("HTTP/1.1 400") && nul.contains("NUL"), nul);
        given().queryParam("limit", "1".repeat(17 * 1024)).get("/probe/page").then().statusCode(414).contentType(ContentType.JSON)
                .body("detail", startsWith("Request URI too long"));
        given().header("X-Padding", "p".repeat(17 * 1024)).get("/probe/page").then().statusCode(431).contentType(ContentType.JSON)
                .body("detail", startsWith("Request headers too large"));
    }

    /** What rest-assured and the JDK's client refuse to send: a request line taken as it is. */
    private String rawGet(String target) throws IOException {
        try (Socket socket = new Socket(service.getHost(), service.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
