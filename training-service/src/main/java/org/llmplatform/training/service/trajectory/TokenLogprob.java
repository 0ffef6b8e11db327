package org.llmplatform.training.service.trajectory;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * A sampled token and its logprob, with the alternatives. {@code logprob} is null where the sampler's
 * value was -inf (pydantic dumps non-finite floats as null).
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TokenLogprob(String token, List<Integer> bytes, Double logprob, List<TokenLogprob> topLogprobs) {
}
