package org.llmplatform.automation;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.HashMap;
import java.util.Map;

/** The service's REST API as a team admin calls it, for test set-up. */
public final class Api {

    public static RequestSpecification as(String key) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }

    public static void putSecret(String key, String entity, String name, String value) {
        as(key).body(Map.of("value", value)).put("/secrets/{entity}/{name}", entity, name).then().statusCode(200);
    }

    public static String createWebhook(String key, String entity, String name, String url, String accessToken, String secret) {
        Map<String, Object> body = new HashMap<>();
        body.put("entity", entity);
        body.put("name", name);
        body.put("url", url);
        body.put("access_token_secret", accessToken);
        body.put("secret", secret);
        return as(key).body(body).post("/webhooks").then().statusCode(201).extract().path("id");
    }

    public static Map<String, Object> automation(String name, Map<String, Object> scope, String eventType, Object filter,
            String webhookId, Object template) {
        Map<String, Object> event = new HashMap<>();
        event.put("type", eventType);
        event.put("filter", filter);
        return Map.of("name", name, "scope", scope, "event", event,
                "action", Map.of("type", "WEBHOOK", "webhook_id", webhookId, "payload_template", template));
    }

    public static String createAutomation(String key, Map<String, Object> automation) {
        return as(key).body(automation).post("/automations").then().statusCode(201).extract().path("id");
    }

    public static Map<String, Object> projectScope(String entity, String project) {
        return Map.of("type", "PROJECT", "project", entity + "/" + project);
    }

    private Api() {
    }
}
