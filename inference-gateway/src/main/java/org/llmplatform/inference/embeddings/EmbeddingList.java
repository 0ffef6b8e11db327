package org.llmplatform.inference.embeddings;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.llmplatform.inference.chat.ChatCompletion;

/**
 * vLLM's {@code EmbeddingResponse}: {@code object: "list"} of {@code embedding} objects, each a list of floats or
 * (base64) the little-endian float32 bytes of the vector as OpenAI sends them; usage counts prompt tokens only.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record EmbeddingList(String id, String object, long created, String model, List<Embedding> data,
        ChatCompletion.Usage usage) {

    @RegisterForReflection
    public record Embedding(int index, String object, Object embedding) {
    }
}
