package org.llmplatform.training.service.trajectory;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ChoiceLogprobs(List<TokenLogprob> content, List<TokenLogprob> refusal) {
}
