package org.llmplatform.support.app;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/** AuthenticationFilter and ApiKeyAuthenticator's cache (platform.auth.cache-ttl is 1 h in these tests). */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ApiKeyAuthenticationTest {

    @Test
    void aRequestWithoutAKeyOrWithAnUnknownOneIs401() {
        given().get("/probe/whoami").then().statusCode(401).body("detail", equalTo("Missing API key: send 'Authorization: Bearer <key>'"));
        given().header("Authorization", "Bearer " + "0".repeat(40)).get("/probe/whoami").then().statusCode(401)
                .body("detail", equalTo("Invalid API key"));
    }

    @Test
    void everyWayOfSendingTheKeyIsAccepted() {
        String user = TestIdentities.unique("keyholder");
        String key = TestIdentities.userWithKey(user);
        given().header("Authorization", "Bearer " + key).get("/probe/whoami").then().statusCode(200).body("user", equalTo(user));
        given().auth().preemptive().basic("api", key).get("/probe/whoami").then().statusCode(200).body("user", equalTo(user));
        given().header("wandb-api-key", key).get("/probe/whoami").then().statusCode(200).body("user", equalTo(user));
        given().header("Authorization", "Bearer " + PlatformTestResources.ADMIN_KEY).get("/probe/whoami").then().statusCode(200)
                .body("user", equalTo("bootstrap-admin"));
    }

    @Test
    void aRevokedKeyWorksUntilItsCachedAnswerIsForgotten() {
        String user = TestIdentities.unique("revoked");
        String key = TestIdentities.userWithKey(user);
        given().header("Authorization", "Bearer " + key).get("/probe/whoami").then().statusCode(200);

        TestIdentities.revoke(key);
        given().header("Authorization", "Bearer " + key).get("/probe/whoami").then().statusCode(200).body("user", equalTo(user));

        given().post("/probe/forget-keys").then().statusCode(204);
        given().header("Authorization", "Bearer " + key).get("/probe/whoami").then().statusCode(401).body("detail", equalTo("Invalid API key"));
    }
}
