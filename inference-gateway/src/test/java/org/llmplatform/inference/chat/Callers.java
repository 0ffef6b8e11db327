package org.llmplatform.inference.chat;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.llmplatform.testing.TestIdentities;

/** A fresh user with a key, and chat-completion calls made with it. */
public final class Callers {

    public static final String MODEL = "stories260K";
    public static final String GOLDEN = ", a little girl was very happy.";

    public final String user;
    public final String key;

    private Callers(String user, String key) {
        this.user = user;
        this.key = key;
    }

    public static Callers fresh(String prefix) {
        String user = TestIdentities.unique(prefix);
        return new Callers(user, TestIdentities.userWithKey(user));
    }

    public RequestSpecification request() {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }

    public Response chat(String body) {
        return request().body(body).post("/v1/chat/completions");
    }

    public static String onceUponATime(String extraFields) {
        return "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Once upon a time\"}]"
                + (extraFields.isEmpty() ? "" : "," + extraFields) + "}";
    }
}
