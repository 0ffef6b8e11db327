package org.llmplatform.inference.embeddings;

import java.util.List;
import org.llmplatform.inference.http.PromptInput;

/**
 * A parsed {@code POST /v1/embeddings} body (vLLM's {@code EmbeddingCompletionRequest}): the inputs, {@code float}
 * or {@code base64} vectors, and the {@code dimensions} asked for (null: the model's).
 */
public record EmbeddingsRequest(String model, List<PromptInput> inputs, boolean base64, Integer dimensions,
        String requestId) {
}
