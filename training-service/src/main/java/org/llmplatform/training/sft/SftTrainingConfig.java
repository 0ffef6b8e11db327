package org.llmplatform.training.sft;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * ART's {@code SFTTrainingConfig} as sent: {@code batch_size} an integer or {@code "auto"}, {@code learning_rate} a
 * number or one number per batch, {@code assistant_turns} {@code "all"} or {@code "last"}, {@code metric_logging}
 * (accepted; every gradient step is reported anyway). Kept as JSON so that a wrong type is refused naming the field.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record SftTrainingConfig(JsonNode batchSize, JsonNode learningRate, JsonNode assistantTurns, JsonNode metricLogging) {
}
