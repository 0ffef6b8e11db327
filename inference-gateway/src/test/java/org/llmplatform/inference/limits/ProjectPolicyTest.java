package org.llmplatform.inference.limits;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.llmplatform.inference.chat.Callers;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/**
 * Model aliases, per-project allow-lists and token / request limits, as configured for the test profile (the
 * configuration's limits are the defaults of those set through /v1/limits, counted the same way).
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProjectPolicyTest {

    private static final String ALIAS = "tiny-storyteller";

    private Callers member;

    @BeforeAll
    void joinTheLab() {
        member = Callers.fresh("quota");
        TestIdentities.team("quota-lab", member.user);
    }

    @Test
    void anAliasAnswersUnderItsPublicNameWithItsBackendsOutput() {
        String viaAlias = member.chat("{\"model\":\"" + ALIAS + "\",\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"Once upon a time\"}],\"temperature\":0,\"max_tokens\":8}").then().statusCode(200)
                .body("model", equalTo(ALIAS)).extract().path("choices[0].message.content");
        member.chat(Callers.onceUponATime("\"temperature\":0,\"max_tokens\":8")).then().statusCode(200)
                .body("choices[0].message.content", equalTo(viaAlias));
        JsonPath models = member.request().get("/v1/models").then().statusCode(200).extract().jsonPath();
        Map<String, Object> card = models.getMap("data.find { it.id == '" + ALIAS + "' }");
        assertEquals(Callers.MODEL, card.get("parent"));
        member.request().get("/v1/models/" + ALIAS).then().statusCode(200).body("parent", equalTo(Callers.MODEL));
    }

    @Test
    void aModelOutsideTheProjectsAllowListIsRefusedWith403() {
        member.request().header("Compat-Project", "quota-lab/tight")
                .body("{\"model\":\"upstream-small\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                .post("/v1/chat/completions").then().statusCode(403)
                .body("error.code", equalTo("model_not_found"))
                .body("error.message", equalTo("Project `quota-lab/tight` does not have access to model `upstream-small`"));
    }

    @Test
    void aRequestWithoutModelIsCheckedAgainstTheAllowListAsTheDefaultModel() {
        String noModel = "{\"messages\":[{\"role\":\"user\",\"content\":\"Once upon a time\"}],\"max_tokens\":1}";
        member.request().header("Compat-Project", "quota-lab/upstream-only").body(noModel)
                .post("/v1/chat/completions").then().statusCode(403)
                .body("error.code", equalTo("model_not_found"))
                .body("error.message", equalTo("Project `quota-lab/upstream-only` does not have access to model `"
                        + Callers.MODEL + "`"));
        member.request().header("Compat-Project", "quota-lab/engine-only").body(noModel)
                .post("/v1/chat/completions").then().statusCode(200).body("model", equalTo(Callers.MODEL));
    }

    @Test
    void aProjectOverItsTokenBudgetGets429WithRetryAfterUntilTheWindowEnds() {
        String body = "{\"model\":\"" + ALIAS + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Once upon a time\"}],"
                + "\"max_tokens\":20,\"ignore_eos\":true}";
        int tokens = member.request().header("Compat-Project", "quota-lab/tight").body(body)
                .post("/v1/chat/completions").then().statusCode(200).extract().path("usage.total_tokens");
        assertTrue(tokens < 30, "one request stays under the budget: " + tokens);
        member.request().header("Compat-Project", "quota-lab/tight").body(body).post("/v1/chat/completions")
                .then().statusCode(200);
        // the tokens are charged as the request ends, by a statement the next request may overtake
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> member.request()
                .header("Compat-Project", "quota-lab/tight").body(body).post("/v1/chat/completions")
                .then().statusCode(429)
                .header("Retry-After", notNullValue())
                .body("error.code", equalTo("rate_limit_exceeded"))
                .body("error.message", containsString("Rate limit reached for tokens per day (TPD) on project "
                        + "`quota-lab/tight`: Limit 30, Used " + 2 * tokens + ".")));
    }

    @Test
    void aProjectOverItsRequestRateGets429() throws InterruptedException {
        // the requests are counted per UTC minute: all three in one
        long second = Instant.now().getEpochSecond() % 60;
        if (second > 50) {
            Thread.sleep((61 - second) * 1000);
        }
        String body = Callers.onceUponATime("\"max_tokens\":1");
        for (int i = 0; i < 2; i++) {
            member.request().header("Compat-Project", "quota-lab/paced").body(body).post("/v1/chat/completions")
                    .then().statusCode(200);
        }
        member.request().header("Compat-Project", "quota-lab/paced").body(body).post("/v1/chat/completions")
                .then().statusCode(429).header("Retry-After", notNullValue())
                .body("error.message", containsString("requests per min (RPM)"));
        member.request().body(body).post("/v1/chat/completions").then().statusCode(200);
    }
}
