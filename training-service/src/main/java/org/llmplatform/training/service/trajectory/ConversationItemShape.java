package org.llmplatform.training.service.trajectory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Every field a message param or a Choice may carry, read in one pass before the item is told apart. */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
record ConversationItemShape(String role, JsonNode content, String name, List<JsonNode> toolCalls, String toolCallId, String refusal,
        String finishReason, Integer index, ChatMessage message, ChoiceLogprobs logprobs, List<Integer> tokenIds) {

    ConversationItem toItem() {
        if (role != null) {
            return new ChatMessage(role, content, name, toolCalls, toolCallId, refusal);
        }
        if (message != null) {
            return new Choice(finishReason, index, message, logprobs, tokenIds);
        }
        return null;
    }
}
