package org.llmplatform.inference.chat;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;

@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class ValidationTest {

    private final Callers caller = Callers.fresh("valid");

    private ValidatableResponse unprocessable(String body) {
        return caller.chat(body).then().statusCode(422).body("error.message", org.hamcrest.Matchers.notNullValue());
    }

    private ValidatableResponse modelLevel(String extraFields, String message) {
        return unprocessable(Callers.onceUponATime(extraFields))
                .body("detail[0].type", equalTo("value_error"))
                .body("detail[0].loc", equalTo(List.of("body")))
                .body("detail[0].msg", equalTo("Value error, " + message));
    }

    private ValidatableResponse badRequest(String extraFields, String message) {
        return caller.chat(Callers.onceUponATime(extraFields)).then().statusCode(400)
                .body("error.message", equalTo(message))
                .body("error.code", nullValue());
    }

    @Test
    void missingMessagesIsFieldRequired() {
        unprocessable("{\"model\":\"stories260K\"}")
                .body("detail[0].type", equalTo("missing"))
                .body("detail[0].loc", equalTo(List.of("body", "messages")))
                .body("detail[0].msg", equalTo("Field required"))
                .body("error.param", equalTo("messages"));
    }

    @Test
    void typeErrorsNameTheFieldLikePydantic() {
        unprocessable(Callers.onceUponATime("\"max_tokens\":1.5"))
                .body("detail[0].type", equalTo("int_from_float"))
                .body("detail[0].loc", equalTo(List.of("body", "max_tokens")));
        unprocessable(Callers.onceUponATime("\"temperature\":\"hot\""))
                .body("detail[0].type", equalTo("float_parsing"));
        unprocessable(Callers.onceUponATime("\"stream\":\"maybe\""))
                .body("detail[0].type", equalTo("bool_parsing"));
        unprocessable("{\"messages\":[{\"content\":\"hi\"}]}")
                .body("detail[0].loc", equalTo(List.of("body", "messages", 0, "role")));
    }

    @Test
    void laxModeCoercesNumericStringsAndWholeFloats() {
        caller.chat(Callers.onceUponATime("\"max_tokens\":\"2\",\"n\":1.0,\"temperature\":\"0\",\"logprobs\":\"no\""))
                .then().statusCode(200).body("usage.completion_tokens", equalTo(2));
    }

    @Test
    void toolChoiceOtherThanNoneIsALiteralError() {
        unprocessable(Callers.onceUponATime("\"tool_choice\":\"auto\""))
                .body("detail[0].type", equalTo("literal_error"))
                .body("detail[0].msg", equalTo("Input should be 'none'"));
        caller.chat(Callers.onceUponATime("\"tool_choice\":\"none\",\"max_tokens\":1,"
                + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}]")).then().statusCode(200);
    }

    @Test
    void seedAndTruncatePromptTokensHaveDeclaredBounds() {
        unprocessable(Callers.onceUponATime("\"seed\":9223372036854775808"))
                .body("detail[0].type", equalTo("less_than_equal"))
                .body("detail[0].msg", equalTo("Input should be less than or equal to 9223372036854775807"));
        unprocessable(Callers.onceUponATime("\"truncate_prompt_tokens\":0"))
                .body("detail[0].type", equalTo("greater_than_equal"))
                .body("detail[0].msg", equalTo("Input should be greater than or equal to 1"));
    }

    @Test
    void modelLevelValidatorsAnswerWithVllmsMessages() {
        modelLevel("\"stream_options\":{\"include_usage\":true}", "Stream options can only be defined when `stream=True`.");
        modelLevel("\"stream\":true,\"prompt_logprobs\":1", "`prompt_logprobs` are not available when `stream=True`.");
        modelLevel("\"prompt_logprobs\":-1", "`prompt_logprobs` must be a positive value.");
        modelLevel("\"top_logprobs\":-1", "`top_logprobs` must be a positive value.");
        modelLevel("\"top_logprobs\":2", "when using `top_logprobs`, `logprobs` must be set to true.");
        modelLevel("\"guided_regex\":\"a\",\"guided_choice\":[\"a\"]",
                "You can only use one kind of guided decoding ('guided_json', 'guided_regex' or 'guided_choice').");
        modelLevel("\"continue_final_message\":true",
                "Cannot set both `continue_final_message` and `add_generation_prompt` to True.");
        modelLevel("\"cache_salt\":\"\"", "Parameter 'cache_salt' must be a non-empty string if provided.");
    }

    @Test
    void servingChecksAre400WithVllmsMessages() {
        badRequest("\"priority\":3", "Got priority 3 but Priority scheduling is not enabled.");
        badRequest("\"guided_decoding_backend\":\"outlines\",\"guided_regex\":\"a\"",
                "Request-level structured output backend selection is no longer supported. The request specified "
                        + "'outlines', but vLLM was initialised with 'regex'. This error can be resolved by removing "
                        + "backend selection from the request.");
        badRequest("\"temperature\":0,\"n\":2", "n must be 1 when using greedy sampling, got 2.");
        badRequest("\"n\":0", "n must be at least 1, got 0.");
        badRequest("\"temperature\":-1", "temperature must be non-negative, got -1.0.");
        badRequest("\"top_p\":0", "top_p must be in (0, 1], got 0.0.");
        badRequest("\"top_k\":-2", "top_k must be 0 (disable), or at least 1, got -2.");
        badRequest("\"min_p\":2", "min_p must be in [0, 1], got 2.0.");
        badRequest("\"presence_penalty\":3", "presence_penalty must be in [-2, 2], got 3.0.");
        badRequest("\"frequency_penalty\":-3", "frequency_penalty must be in [-2, 2], got -3.0.");
        badRequest("\"repetition_penalty\":0", "repetition_penalty must be greater than zero, got 0.0.");
        badRequest("\"max_tokens\":0", "max_tokens must be at least 1, got 0.");
        badRequest("\"max_tokens\":5,\"min_tokens\":6", "min_tokens must be less than or equal to max_tokens=5, got 6.");
        badRequest("\"stop\":[\"\"]", "stop cannot contain an empty string.");
        badRequest("\"logprobs\":true,\"top_logprobs\":21", "Requested sample logprobs of 21, which is greater than max allowed: 20");
        badRequest("\"logits_processors\":[\"x.Y\"]", "The `logits_processors` argument is not supported by this server. "
                + "See --logits-processor-pattern engine argugment for more information.");
        badRequest("\"logit_bias\":{\"9999\":1}", "token_id(s) [9999] in logit_bias contain out-of-vocab token ids. Vocabulary size: 512");
        badRequest("\"allowed_token_ids\":[]", "allowed_token_ids is not None and empty!");
    }

    @Test
    void theContextLengthBoundsMaxTokens() {
        badRequest("\"max_tokens\":600", "'max_tokens' or 'max_completion_tokens' is too large: 600. This model's maximum "
                + "context length is 512 tokens and your request has 7 input tokens (600 > 512 - 7).");
        String longPrompt = "{\"model\":\"stories260K\",\"messages\":[{\"role\":\"user\",\"content\":\""
                + "the cat sat. ".repeat(200) + "\"}]}";
        caller.chat(longPrompt).then().statusCode(400)
                .body("error.message", containsString("This model's maximum context length is 512 tokens. However, your request has"));
        caller.chat(longPrompt.replace("]}", "],\"truncate_prompt_tokens\":20,\"max_tokens\":2}")).then().statusCode(200)
                .body("usage.prompt_tokens", equalTo(20));
    }

    @Test
    void malformedJsonIsAJsonInvalid422() {
        unprocessable("{\"messages\": [").body("detail[0].type", equalTo("json_invalid"));
    }

    @Test
    void unknownFieldsAndEngineFieldsAreAccepted() {
        caller.chat(Callers.onceUponATime("\"max_tokens\":1,\"frobnicate\":true,\"engine_xargs\":{\"a\":1,\"b\":\"x\"},"
                + "\"kv_transfer_params\":{\"k\":1},\"cache_salt\":\"s\",\"skip_special_tokens\":true,\"documents\":[],"
                + "\"chat_template_kwargs\":{},\"parallel_tool_calls\":false,\"user\":\"u\",\"max_completion_tokens\":1"))
                .then().statusCode(200);
    }
}
