package org.llmplatform.inference.rest;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.llmplatform.testing.TestIdentities;

/** A fresh user with a key, and chat-completion calls made with it. */
final class Callers {

    static final String MODEL = "stories260K";
    static final String GOLDEN = ", a little girl was very happy.";

    final String user;
    final String key;

    private Callers(String user, String key) {
        this.user = user;
        this.key = key;
    }

    static Callers fresh(String prefix) {
        String user = TestIdentities.unique(prefix);
        return new Callers(user, TestIdentities.userWithKey(user));
    }

    RequestSpecification request() {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }

    Response chat(String body) {
        return request().body(body).post("/v1/chat/completions");
    }

    static String onceUponATime(String extraFields) {
        return "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Once upon a time\"}]"
                + (extraFields.isEmpty() ? "" : "," + extraFields) + "}";
    }
}
