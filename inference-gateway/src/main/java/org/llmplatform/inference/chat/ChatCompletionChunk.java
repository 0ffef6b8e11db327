package org.llmplatform.inference.chat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * One SSE {@code chat.completion.chunk}. Like vLLM's "exclude unset" dump: {@code usage} is absent
 * unless it is the usage chunk (or continuous stats are on), while a choice's {@code logprobs} and
 * {@code finish_reason} are explicit nulls.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ChatCompletionChunk(String id, String object, long created, String model, List<Choice> choices,
        StreamUsage usage) {

    public static ChatCompletionChunk of(String id, long created, String model, List<Choice> choices, StreamUsage usage) {
        return new ChatCompletionChunk(id, "chat.completion.chunk", created, model, choices, usage);
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Choice(int index, Delta delta, Logprobs logprobs, String finishReason,
            @JsonInclude(JsonInclude.Include.NON_NULL) Object stopReason) {
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Delta(String role, String content) {
    }

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record StreamUsage(long promptTokens, long completionTokens, long totalTokens) {

        public static StreamUsage of(long prompt, long completion) {
            return new StreamUsage(prompt, completion, prompt + completion);
        }
    }
}
