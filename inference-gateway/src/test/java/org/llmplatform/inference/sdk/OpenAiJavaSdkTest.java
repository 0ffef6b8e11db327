package org.llmplatform.inference.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.errors.UnprocessableEntityException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.testing.TestIdentities;

/** The official openai-java SDK against the running gateway (docs/inference-gateway.md#client-sdks). */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class OpenAiJavaSdkTest {

    private static final String GOLDEN = ", a little girl was very happy.";

    @TestHTTPResource("/v1")
    URL base;

    private OpenAIClient client;

    @BeforeEach
    void connect() {
        String user = TestIdentities.unique("sdk");
        client = OpenAIOkHttpClient.builder().baseUrl(base.toString()).apiKey(TestIdentities.userWithKey(user))
                .putHeader("Compat-Project", user + "/sdk").maxRetries(0).build();
    }

    private static ChatCompletionCreateParams.Builder onceUponATime() {
        return ChatCompletionCreateParams.builder().model("stories260K").addUserMessage("Once upon a time")
                .temperature(0.0).maxCompletionTokens(12);
    }

    @Test
    void createReturnsAValidCompletion() {
        ChatCompletion completion = client.chat().completions().create(onceUponATime().build());
        completion.validate();
        assertTrue(completion.choices().get(0).message().content().orElseThrow().startsWith(GOLDEN));
        assertEquals(12, completion.usage().orElseThrow().completionTokens());
        assertEquals(ChatCompletion.Choice.FinishReason.LENGTH, completion.choices().get(0).finishReason());
    }

    @Test
    void streamingYieldsTheSameText() {
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(onceUponATime().build())) {
            String text = stream.stream()
                    .peek(ChatCompletionChunk::validate)
                    .flatMap(chunk -> chunk.choices().stream())
                    .map(choice -> choice.delta().content().orElse(""))
                    .collect(Collectors.joining());
            assertTrue(text.startsWith(GOLDEN), text);
        }
    }

    @Test
    void modelsAreListedAndRetrieved() {
        assertTrue(client.models().list().data().stream().anyMatch(model -> model.id().equals("stories260K")));
        assertEquals("stories260K", client.models().retrieve("stories260K").id());
        NotFoundException missing = assertThrows(NotFoundException.class, () -> client.models().retrieve("nope"));
        assertEquals("model_not_found", missing.code().orElseThrow());
    }

    @Test
    void errorsCarryTheirMessage() {
        BadRequestException bad = assertThrows(BadRequestException.class,
                () -> client.chat().completions().create(onceUponATime().temperature(-1.0).build()));
        assertTrue(bad.getMessage().contains("temperature must be non-negative, got -1.0."), bad.getMessage());
        UnprocessableEntityException invalid = assertThrows(UnprocessableEntityException.class,
                () -> client.chat().completions().create(onceUponATime()
                        .putAdditionalBodyProperty("top_k", JsonValue.from("many")).build()));
        assertTrue(invalid.getMessage().contains("top_k"), invalid.getMessage());
    }
}
