package org.llmplatform.console.pages;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import java.util.Map;
import org.llmplatform.testing.PlatformTestResources;

/** Users made as an administrator would, through the console's route to the tracing-service's admin API. */
final class AdminApi {

    /** Creates the user and a key for it; returns the key. */
    static String userWithKey(String user) {
        given().header("Authorization", "Bearer " + PlatformTestResources.ADMIN_KEY).contentType(ContentType.JSON)
                .body(Map.of("name", user)).post("/admin/users").then().statusCode(201);
        return given().header("Authorization", "Bearer " + PlatformTestResources.ADMIN_KEY).contentType(ContentType.JSON)
                .body(Map.of("name", "console test")).post("/admin/users/" + user + "/api-keys").then().statusCode(201)
                .extract().path("key");
    }

    private AdminApi() {
    }
}
