package org.llmplatform.training.service;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Every key ART's {@code ExperimentalTrainingConfig} has had (docs/training-service.md#experimental-training-config), all optional and nullable:
 * ART sends explicit nulls for the keys it leaves unset. {@link TrainingConfigResolver} fills in ART's defaults.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ExperimentalTrainingConfig(
        Double learningRate,
        Boolean precalculateLogprobs,
        Double advantageBalance,
        Double epsilon,
        Double epsilonHigh,
        String importanceSamplingLevel,
        Double kimiK2Tau,
        Boolean maskProbRatio,
        Double maxNegativeAdvantageImportanceSamplingWeight,
        Boolean ppo,
        Boolean scaleRewards,
        Boolean allowTrainingWithoutLogprobs,
        Double klPenaltyCoef,
        Integer klPenaltyReferenceStep,
        String klPenaltySource,
        Integer klPenaltyStepLag,
        String klRefAdapterPath,
        Integer logprobCalculationChunkSize,
        String lossFn,
        Boolean normalizeAdvantages,
        Double numTrajectoriesLearningRateMultiplierPower,
        Integer packedSequenceLength,
        Boolean plotTensors,
        Boolean scaleLearningRateByRewardStdDev,
        Double truncatedImportanceSampling) {

    static final ExperimentalTrainingConfig NONE = new ExperimentalTrainingConfig(null, null, null, null, null, null, null, null, null,
            null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
}
