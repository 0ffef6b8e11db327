package org.llmplatform.training.service.trajectory;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * An OpenAI {@code Choice} as the sampler returned it: the assistant message, and the sampled tokens
 * with their logprobs ({@code token_id:N} strings when vLLM runs with {@code return_tokens_as_token_ids}).
 * {@code token_ids} is vLLM's extra carrying the sampled ids directly.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonDeserialize(using = JsonDeserializer.None.class)
public record Choice(String finishReason, Integer index, ChatMessage message, ChoiceLogprobs logprobs, List<Integer> tokenIds)
        implements ConversationItem {
}
