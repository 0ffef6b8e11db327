package org.llmplatform.automation.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.testing.PlatformTestResources;

/** The admin page moved into the console: its old addresses lead there, without a key. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class AdminPageRedirectTest {

    @Test
    void theOldPageAndItsFilesRedirectToTheConsolesAutomationsPage() {
        for (String path : new String[] {"/admin", "/admin/", "/admin/index.html", "/admin/admin.js"}) {
            given().redirects().follow(false).get(path)
                    .then().statusCode(302).header("Location", equalTo("http://console.example.test:8000/#/automations"));
        }
    }

    @Test
    void withoutTheConsolesUrlTheOldPageIsANotFoundSayingWhereItWent() {
        ApiException missing = assertThrows(ApiException.class, () -> AdminPageRedirect.toConsole(Optional.empty()));
        assertEquals(404, missing.status());
        assertTrue(missing.getMessage().contains("moved into the console"), missing.getMessage());
    }

    @Test
    void theApiBesideItStillNeedsAKey() {
        given().get("/automations?entity=anyone").then().statusCode(401).body("detail", containsString("API key"));
    }
}
