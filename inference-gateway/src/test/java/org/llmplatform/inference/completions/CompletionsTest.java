package org.llmplatform.inference.completions;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.inference.chat.Callers;
import org.llmplatform.inference.usage.UsageTopic;
import org.llmplatform.llama.GeneratedToken;
import org.llmplatform.llama.Generation;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.llama.SamplingParams;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/** {@code POST /v1/completions} on the embedded engine, checked against the engine run directly. */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CompletionsTest {

    private static final String PROMPT = "Once upon a time";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static LlamaEngine engine;

    private final Callers caller = Callers.fresh("completions");

    static synchronized LlamaEngine engine() throws IOException {
        if (engine == null) {
            engine = LlamaEngine.load(Path.of("../models/stories260K.bin"), Path.of("../models/tok512.bin"));
        }
        return engine;
    }

    /** What the engine itself generates greedily after {@code prompt}'s tokens. */
    static String greedy(int[] prompt, int maxTokens) throws IOException {
        Generation generation = engine().generate(prompt, SamplingParams.builder().temperature(0f).maxTokens(maxTokens)
                .build(), LlamaEngine.randomFor(null, 0));
        StringBuilder text = new StringBuilder();
        while (!generation.finished()) {
            text.append(generation.next().delta());
        }
        return text.toString();
    }

    static int[] tokens(String text) throws IOException {
        return engine().tokenizer().encode(text, true);
    }

    private Response complete(String fields) {
        return caller.request().body("{\"model\":\"" + Callers.MODEL + "\"," + fields + "}").post("/v1/completions");
    }

    @Test
    void aPromptIsContinuedAsTheEngineContinuesItsTokens() throws IOException {
        int[] prompt = tokens(PROMPT);
        complete("\"prompt\":\"" + PROMPT + "\",\"temperature\":0,\"max_tokens\":10").then().statusCode(200)
                .body("object", equalTo("text_completion"))
                .body("id", startsWith("cmpl-"))
                .body("model", equalTo(Callers.MODEL))
                .body("choices", hasSize(1))
                .body("choices[0].index", equalTo(0))
                .body("choices[0].text", equalTo(greedy(prompt, 10)))
                .body("choices[0].logprobs", nullValue())
                .body("choices[0].finish_reason", equalTo("length"))
                .body("usage.prompt_tokens", equalTo(prompt.length))
                .body("usage.completion_tokens", equalTo(10))
                .body("usage.total_tokens", equalTo(prompt.length + 10));
    }

    @Test
    void withoutMaxTokensSixteenAreGenerated() {
        complete("\"prompt\":\"" + PROMPT + "\",\"temperature\":0,\"ignore_eos\":true").then().statusCode(200)
                .body("usage.completion_tokens", equalTo(16));
    }

    @Test
    void tokenIdsAreAPromptAsTheyAre() throws IOException {
        int[] prompt = tokens(PROMPT);
        complete("\"prompt\":" + Arrays.toString(prompt) + ",\"temperature\":0,\"max_tokens\":6").then().statusCode(200)
                .body("choices[0].text", equalTo(greedy(prompt, 6)))
                .body("usage.prompt_tokens", equalTo(prompt.length));
    }

    @Test
    void everyPromptOfAListGetsNChoicesNumberedPromptByPrompt() throws IOException {
        String other = "The cat";
        JsonPath answer = complete("\"prompt\":[\"" + PROMPT + "\",\"" + other + "\"],\"n\":2,\"seed\":7,\"max_tokens\":4")
                .then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(0, 1, 2, 3), answer.getList("choices.index"));
        assertEquals(tokens(PROMPT).length + tokens(other).length, answer.getInt("usage.prompt_tokens"));
        assertEquals(16, answer.getInt("usage.completion_tokens"));
        complete("\"prompt\":[" + Arrays.toString(tokens(PROMPT)) + "," + Arrays.toString(tokens(other))
                + "],\"temperature\":0,\"max_tokens\":5").then().statusCode(200)
                .body("choices[0].text", equalTo(greedy(tokens(PROMPT), 5)))
                .body("choices[1].text", equalTo(greedy(tokens(other), 5)));
    }

    @Test
    void logprobsListEachGeneratedTokenWithItsAlternativesAndOffsets() throws IOException {
        JsonPath answer = complete("\"prompt\":\"" + PROMPT + "\",\"temperature\":0,\"max_tokens\":5,\"logprobs\":3")
                .then().statusCode(200).extract().jsonPath();
        String text = answer.getString("choices[0].text");
        List<String> tokens = answer.getList("choices[0].logprobs.tokens");
        List<Integer> offsets = answer.getList("choices[0].logprobs.text_offset");
        List<Float> logprobs = answer.getList("choices[0].logprobs.token_logprobs", Float.class);
        List<Map<String, Float>> top = answer.getList("choices[0].logprobs.top_logprobs");
        assertEquals(5, tokens.size());
        assertEquals(text, String.join("", tokens));
        int offset = 0;
        for (int i = 0; i < tokens.size(); i++) {
            assertEquals(offset, offsets.get(i));
            offset += tokens.get(i).length();
            // greedy: the token is the most likely one, and it is among its alternatives
            assertTrue(top.get(i).size() >= 3 && top.get(i).size() <= 4, top.get(i).toString());
            assertEquals(logprobs.get(i), ((Number) top.get(i).get(tokens.get(i))).floatValue(), 1e-6);
            for (Object alternative : top.get(i).values()) {
                assertTrue(((Number) alternative).floatValue() <= logprobs.get(i) + 1e-6);
            }
        }
    }

    @Test
    void anEchoWithoutGenerationScoresThePrompt() throws IOException {
        int[] prompt = tokens(PROMPT);
        List<GeneratedToken> expected = engine().promptLogprobs(prompt, 1);
        JsonPath answer = complete("\"prompt\":\"" + PROMPT + "\",\"echo\":true,\"max_tokens\":0,\"logprobs\":1")
                .then().statusCode(200).extract().jsonPath();
        assertEquals(PROMPT, answer.getString("choices[0].text"));
        assertEquals("length", answer.getString("choices[0].finish_reason"));
        List<Object> logprobs = answer.getList("choices[0].logprobs.token_logprobs");
        List<Object> top = answer.getList("choices[0].logprobs.top_logprobs");
        assertEquals(prompt.length, logprobs.size());
        assertNull(logprobs.get(0));
        assertNull(top.get(0));
        for (int i = 1; i < prompt.length; i++) {
            assertEquals(expected.get(i - 1).logprob(), ((Number) logprobs.get(i)).floatValue(), 1e-6);
            assertNotNull(top.get(i));
        }
        assertEquals(prompt.length, answer.getInt("usage.prompt_tokens"));
        assertEquals(0, answer.getInt("usage.completion_tokens"));
    }

    @Test
    void anEchoedCompletionStartsWithThePromptAndItsTokens() throws IOException {
        int[] prompt = tokens(PROMPT);
        JsonPath answer = complete("\"prompt\":\"" + PROMPT + "\",\"echo\":true,\"temperature\":0,\"max_tokens\":4,"
                + "\"logprobs\":0").then().statusCode(200).extract().jsonPath();
        assertEquals(PROMPT + greedy(prompt, 4), answer.getString("choices[0].text"));
        assertEquals(prompt.length + 4, answer.getList("choices[0].logprobs.tokens").size());
    }

    @Test
    void aStreamYieldsTheSameTextChunkByChunkThenItsUsage() throws IOException {
        int[] prompt = tokens(PROMPT);
        String body = complete("\"prompt\":\"" + PROMPT + "\",\"temperature\":0,\"max_tokens\":8,\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true}").then().statusCode(200)
                .header("Content-Type", startsWith("text/event-stream")).extract().asString();
        assertTrue(body.endsWith("data: [DONE]\n\n"), body);
        StringBuilder text = new StringBuilder();
        JsonNode usage = null;
        String finish = null;
        for (String event : body.split("\n\n")) {
            String data = event.substring("data: ".length());
            if (data.equals("[DONE]")) {
                continue;
            }
            JsonNode chunk = JSON.readTree(data);
            assertEquals("text_completion", chunk.get("object").asText());
            for (JsonNode choice : chunk.get("choices")) {
                text.append(choice.get("text").asText());
                finish = choice.get("finish_reason").isNull() ? finish : choice.get("finish_reason").asText();
            }
            if (!chunk.get("usage").isNull()) {
                usage = chunk.get("usage");
            }
        }
        assertEquals(greedy(prompt, 8), text.toString());
        assertEquals("length", finish);
        assertNotNull(usage, body);
        assertEquals(prompt.length, usage.get("prompt_tokens").asInt());
        assertEquals(8, usage.get("completion_tokens").asInt());
    }

    @Test
    void anEchoedStreamSendsThePromptFirst() {
        String body = complete("\"prompt\":\"" + PROMPT + "\",\"echo\":true,\"max_tokens\":3,\"stream\":true")
                .then().statusCode(200).extract().asString();
        assertTrue(body.startsWith("data: {") && body.indexOf("\"text\":\"" + PROMPT) < body.indexOf("\n\n"), body);
    }

    @Test
    void aCompletionIsCountedInUsageWithItsAnswer() {
        String requestId = TestIdentities.unique("cmpl");
        caller.request().header("X-Request-Id", requestId)
                .body("{\"model\":\"" + Callers.MODEL + "\",\"prompt\":\"" + PROMPT + "\",\"max_tokens\":3}")
                .post("/v1/completions").then().statusCode(200).body("id", equalTo("cmpl-" + requestId));
        JsonNode record = UsageTopic.awaitRecord(caller.user + "/inference", "cmpl-" + requestId);
        assertEquals("success", record.get("status").asText());
        assertEquals(3, record.get("completion_tokens").asInt());
        assertEquals("text_completion", record.at("/response/object").asText());
        assertEquals(PROMPT, record.at("/request/prompt").asText());
    }

    @Test
    void anEchoWithoutGenerationIsCountedWithItsPromptTokensStreamedOrNot() throws IOException {
        int promptTokens = tokens(PROMPT).length;
        for (boolean stream : new boolean[] {false, true}) {
            String requestId = TestIdentities.unique("echo");
            String answer = caller.request().header("X-Request-Id", requestId)
                    .body("{\"model\":\"" + Callers.MODEL + "\",\"prompt\":\"" + PROMPT + "\",\"echo\":true,\"max_tokens\":0,"
                            + "\"stream\":" + stream + (stream ? ",\"stream_options\":{\"include_usage\":true}" : "") + "}")
                    .post("/v1/completions").then().statusCode(200).extract().asString();
            assertTrue(answer.contains("\"prompt_tokens\":" + promptTokens + ",") && answer.contains("\"completion_tokens\":0"),
                    answer);
            JsonNode record = UsageTopic.awaitRecord(caller.user + "/inference", "cmpl-" + requestId);
            assertEquals("success", record.get("status").asText(), record::toString);
            assertEquals(promptTokens, record.get("prompt_tokens").asInt(), record::toString);
            assertEquals(0, record.get("completion_tokens").asInt(), record::toString);
        }
    }

    @Test
    void refusalsAreOpenAiErrorsNamingTheField() {
        complete("\"prompt\":\"x\",\"suffix\":\"end\"").then().statusCode(400)
                .body("error.message", equalTo("suffix is not currently supported")).body("error.param", equalTo("suffix"));
        complete("\"max_tokens\":3").then().statusCode(400).body("error.param", equalTo("prompt"));
        complete("\"prompt\":[]").then().statusCode(400).body("error.param", equalTo("prompt"));
        complete("\"prompt\":{\"text\":\"x\"}").then().statusCode(422).body("error.param", equalTo("prompt"));
        complete("\"prompt\":[\"a\",[1,2]]").then().statusCode(422).body("error.param", equalTo("prompt.1"));
        complete("\"prompt\":\"x\",\"logprobs\":-1").then().statusCode(400).body("error.param", equalTo("logprobs"));
        complete("\"prompt\":\"x\",\"logprobs\":21").then().statusCode(400).body("error.param", equalTo("logprobs"))
                .body("error.message", equalTo("Requested sample logprobs of 21, which is greater than max allowed: 20"));
        complete("\"prompt\":[1,9999]").then().statusCode(400).body("error.param", equalTo("prompt"))
                .body("error.message", equalTo("Token id 9999 is out of vocabulary"));
        complete("\"prompt\":\"x\",\"temperature\":-1").then().statusCode(400).body("error.param", equalTo("temperature"));
        complete("\"prompt\":\"x\",\"stream_options\":{\"include_usage\":true}").then().statusCode(422);
        caller.request().body("[\"Once upon a time\"]").post("/v1/completions").then().statusCode(422)
                .body("detail[0].type", equalTo("dict_type"));
        caller.request().body("{\"model\":\"no-such-model\",\"prompt\":\"x\"}").post("/v1/completions").then()
                .statusCode(404).body("error.code", equalTo("model_not_found"));
    }
}
