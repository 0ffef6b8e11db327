package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * ART's {@code SFTTrainingConfig} resolved for a trainer: the training file's examples are taken in file order,
 * {@code batchSize} at a time, one optimizer step per batch with {@code learningRates[i]} for batch i (so there
 * are as many rates as batches); the loss is the mean cross-entropy over the tokens of the assistant turns that
 * {@code assistantTurns} names ({@value #ASSISTANT_TURNS_ALL} or {@value #ASSISTANT_TURNS_LAST}).
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record SftJobConfig(int batchSize, List<Double> learningRates, String assistantTurns) {

    public static final String ASSISTANT_TURNS_ALL = "all";
    public static final String ASSISTANT_TURNS_LAST = "last";
}
