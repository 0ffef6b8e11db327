package org.llmplatform.training.service.trajectory;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.Set;

/**
 * An OpenAI chat message param. {@code content} stays as sent: a string, a list of content parts or
 * null; {@code tool_calls} are kept as dumped, since templates render them verbatim.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonDeserialize(using = JsonDeserializer.None.class)
public record ChatMessage(String role, JsonNode content, String name, List<JsonNode> toolCalls, String toolCallId, String refusal)
        implements ConversationItem {

    public static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool", "function");
}
