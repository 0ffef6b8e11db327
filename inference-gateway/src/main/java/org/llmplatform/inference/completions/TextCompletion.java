package org.llmplatform.inference.completions;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.Map;

/**
 * vLLM's {@code text_completion}, non-streamed ({@code CompletionResponse}) or one chunk of a stream
 * ({@code CompletionStreamResponse}, where {@code usage} is null but on the usage chunk), dumped with every null;
 * {@code usage}: a {@code ChatCompletion.Usage}, or a stream's {@code StreamUsage}.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TextCompletion(String id, String object, long created, String model, List<Choice> choices,
        Object usage) {

    static final String OBJECT = "text_completion";

    static TextCompletion of(String id, long created, String model, List<Choice> choices, Object usage) {
        return new TextCompletion(id, OBJECT, created, model, choices, usage);
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Choice(int index, String text, CompletionLogprobs logprobs, String finishReason, Object stopReason) {
    }

    /**
     * The legacy logprobs object: per token its text, logprob (null for a prompt's first token, which nothing
     * predicts), the most likely alternatives with the token itself (null where the logprob is), and where its text
     * starts in the choice's text.
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record CompletionLogprobs(List<Integer> textOffset, List<Float> tokenLogprobs, List<String> tokens,
            List<Map<String, Float>> topLogprobs) {
    }
}
