package org.llmplatform.inference.chat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** vLLM's non-streamed {@code chat.completion}, dumped with every null present. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ChatCompletion(String id, String object, long created, String model, List<Choice> choices,
        Object serviceTier, Object systemFingerprint, Usage usage, Object promptLogprobs, Object kvTransferParams) {

    public static ChatCompletion of(String id, long created, String model, List<Choice> choices, Usage usage) {
        return new ChatCompletion(id, "chat.completion", created, model, choices, null, null, usage, null, null);
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Choice(int index, Message message, Logprobs logprobs, String finishReason, Object stopReason) {
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Message(String role, String content, Object refusal, Object annotations, Object audio,
            Object functionCall, List<Object> toolCalls, Object reasoningContent) {

        public static Message of(String role, String content) {
            return new Message(role, content, null, null, null, null, List.of(), null);
        }
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Usage(long promptTokens, long totalTokens, long completionTokens, Object promptTokensDetails) {

        public static Usage of(long prompt, long completion) {
            return new Usage(prompt, prompt + completion, completion, null);
        }
    }
}
