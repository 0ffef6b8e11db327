package org.llmplatform.inference.chat;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ChatCompletionsTest {

    private final Callers caller = Callers.fresh("chat");

    @Test
    void greedyDecodingOfOnceUponATimeIsTheProvenanceStory() {
        caller.chat(Callers.onceUponATime("\"temperature\":0,\"max_tokens\":12")).then().statusCode(200)
                .header("Content-Type", startsWith("application/json"))
                .body("object", equalTo("chat.completion"))
                .body("id", startsWith("chatcmpl-"))
                .body("model", equalTo(Callers.MODEL))
                .body("choices", hasSize(1))
                .body("choices[0].index", equalTo(0))
                .body("choices[0].message.role", equalTo("assistant"))
                .body("choices[0].message.content", startsWith(Callers.GOLDEN))
                .body("choices[0].message.refusal", nullValue())
                .body("choices[0].message.tool_calls", hasSize(0))
                .body("choices[0].logprobs", nullValue())
                .body("choices[0].finish_reason", equalTo("length"))
                .body("usage.prompt_tokens", equalTo(7))
                .body("usage.completion_tokens", equalTo(12))
                .body("usage.total_tokens", equalTo(19))
                .body("$", org.hamcrest.Matchers.hasKey("system_fingerprint"));
    }

    @Test
    void theRequestIdComesFromTheHeaderThenTheBody() {
        caller.request().header("X-Request-Id", "from-header").body(Callers.onceUponATime("\"max_tokens\":2,\"request_id\":\"from-body\""))
                .post("/v1/chat/completions").then().statusCode(200)
                .header("X-Request-Id", "from-header").body("id", equalTo("chatcmpl-from-header"));
        caller.chat(Callers.onceUponATime("\"max_tokens\":2,\"request_id\":\"from-body\"")).then().statusCode(200)
                .header("X-Request-Id", notNullValue()).body("id", equalTo("chatcmpl-from-body"));
    }

    @Test
    void withoutAModelTheFirstServedModelAnswers() {
        caller.chat("{\"messages\":[{\"role\":\"user\",\"content\":\"Once upon a time\"}],\"temperature\":0,\"max_tokens\":8}")
                .then().statusCode(200).body("model", equalTo(Callers.MODEL))
                .body("choices[0].message.content", startsWith(", a little girl"));
    }

    @Test
    void anUnknownModelIsA404ModelNotFound() {
        caller.chat("{\"model\":\"gpt-17\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").then().statusCode(404)
                .body("error.code", equalTo("model_not_found"))
                .body("error.message", equalTo("The model `gpt-17` does not exist."));
    }

    @Test
    void theSameSeedGivesTheSameCompletion() {
        String body = Callers.onceUponATime("\"temperature\":1.3,\"seed\":1234,\"max_tokens\":30");
        String first = caller.chat(body).then().statusCode(200).extract().path("choices[0].message.content");
        String second = caller.chat(body).then().statusCode(200).extract().path("choices[0].message.content");
        assertEquals(first, second);
    }

    @Test
    void nChoicesAreSampledIndependentlyAndCountedTogether() {
        JsonPath response = caller.chat(Callers.onceUponATime("\"temperature\":1.5,\"n\":3,\"seed\":7,\"max_tokens\":20"))
                .then().statusCode(200).extract().jsonPath();
        List<String> texts = response.getList("choices.message.content");
        assertEquals(3, texts.size());
        assertEquals(List.of(0, 1, 2), response.getList("choices.index"));
        assertTrue(texts.stream().distinct().count() > 1, texts.toString());
        assertEquals(60, response.getInt("usage.completion_tokens"));
    }

    @Test
    void aStopStringEndsTheChoiceAndIsReportedAsStopReason() {
        caller.chat(Callers.onceUponATime("\"temperature\":0,\"stop\":[\" girl\"]")).then().statusCode(200)
                .body("choices[0].message.content", equalTo(", a little"))
                .body("choices[0].finish_reason", equalTo("stop"))
                .body("choices[0].stop_reason", equalTo(" girl"));
    }

    @Test
    void logprobsListEveryTokenWithItsAlternatives() {
        JsonPath response = caller.chat(Callers.onceUponATime("\"temperature\":0,\"max_tokens\":4,\"logprobs\":true,\"top_logprobs\":3"))
                .then().statusCode(200).extract().jsonPath();
        assertEquals(4, response.getList("choices[0].logprobs.content").size());
        assertEquals(",", response.getString("choices[0].logprobs.content[0].token"));
        assertEquals(List.of(44), response.getList("choices[0].logprobs.content[0].bytes"));
        assertEquals(3, response.getList("choices[0].logprobs.content[0].top_logprobs").size());
        assertTrue(response.getFloat("choices[0].logprobs.content[0].logprob") < 0f);
    }

    @Test
    void tokensCanBeRenderedAsTokenIds() {
        String token = caller.chat(Callers.onceUponATime(
                        "\"temperature\":0,\"max_tokens\":1,\"logprobs\":true,\"return_tokens_as_token_ids\":true"))
                .then().statusCode(200).extract().path("choices[0].logprobs.content[0].token");
        assertTrue(token.matches("token_id:\\d+"), token);
    }

    @Test
    void echoPrependsTheLastMessageWhenItHasTheResponseRole() {
        String body = "{\"model\":\"stories260K\",\"messages\":[{\"role\":\"assistant\",\"content\":\"Once upon a time\"}],"
                + "\"temperature\":0,\"max_tokens\":6,\"echo\":true,\"add_generation_prompt\":false,\"continue_final_message\":true}";
        caller.chat(body).then().statusCode(200)
                .body("choices[0].message.role", equalTo("assistant"))
                .body("choices[0].message.content", startsWith("Once upon a time, a little girl"));
    }

    @Test
    void guidedChoiceAnswersOneOfTheChoices() {
        for (int seed = 0; seed < 3; seed++) {
            String text = caller.chat(Callers.onceUponATime(
                            "\"temperature\":1,\"seed\":" + seed + ",\"guided_choice\":[\" yes\",\" no\"]"))
                    .then().statusCode(200).extract().path("choices[0].message.content");
            assertTrue(text.equals(" yes") || text.equals(" no"), text);
        }
    }

    @Test
    void guidedRegexShapesTheAnswer() {
        String text = caller.chat(Callers.onceUponATime("\"temperature\":0,\"guided_regex\":\"[0-9]{2} cats\""))
                .then().statusCode(200).extract().path("choices[0].message.content");
        assertTrue(text.matches("[0-9]{2} cats"), text);
    }

    @Test
    void logitBiasAndAllowedTokenIdsReachTheEngine() {
        String biased = caller.chat(Callers.onceUponATime("\"temperature\":0,\"max_tokens\":3,\"logit_bias\":{\"2\":-100,\"65\":100}"))
                .then().statusCode(200).extract().path("choices[0].message.content");
        String plain = caller.chat(Callers.onceUponATime("\"temperature\":0,\"max_tokens\":3"))
                .then().statusCode(200).extract().path("choices[0].message.content");
        assertNotEquals(plain, biased);
        caller.chat(Callers.onceUponATime("\"temperature\":0,\"max_tokens\":3,\"allowed_token_ids\":[65]")).then()
                .statusCode(200).body("choices[0].message.content", equalTo(caller.chat(Callers.onceUponATime(
                        "\"temperature\":0,\"max_tokens\":3,\"logit_bias\":{\"65\":100}")).path("choices[0].message.content")));
    }

    @Test
    void minTokensAndIgnoreEosKeepGenerating() {
        caller.chat(Callers.onceUponATime("\"temperature\":0,\"max_tokens\":5,\"logit_bias\":{\"2\":100},\"min_tokens\":3"))
                .then().statusCode(200).body("usage.completion_tokens", equalTo(4))
                .body("choices[0].finish_reason", equalTo("stop"));
        caller.chat(Callers.onceUponATime("\"temperature\":0,\"max_tokens\":5,\"logit_bias\":{\"2\":100},\"ignore_eos\":true"))
                .then().statusCode(200).body("usage.completion_tokens", equalTo(5))
                .body("choices[0].finish_reason", equalTo("length"));
    }

    @Test
    void withoutMaxTokensTheRestOfTheContextIsTheLimit() {
        caller.chat(Callers.onceUponATime("\"temperature\":0,\"ignore_eos\":true")).then().statusCode(200)
                .body("usage.total_tokens", equalTo(512)).body("choices[0].finish_reason", equalTo("length"));
    }
}
