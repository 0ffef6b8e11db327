package org.llmplatform.inference.chat;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** {@code logprobs: {content: [...]}} of a choice or of a streamed delta. */
@RegisterForReflection
public record Logprobs(List<Entry> content) {

    @RegisterForReflection
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Entry(String token, float logprob, List<Integer> bytes, List<Alternative> topLogprobs) {
    }

    @RegisterForReflection
    public record Alternative(String token, float logprob, List<Integer> bytes) {
    }
}
