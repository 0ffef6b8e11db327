package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * ART's {@code ExperimentalTrainingConfig} with every default resolved, as a trainer runs it. The fields
 * that ART leaves unset by default ({@code kimi_k2_tau}, the KL reference, the caps) stay null here too.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TrainingJobConfig(
        double learningRate,
        boolean precalculateLogprobs,
        double advantageBalance,
        String lossFn,
        double epsilon,
        double epsilonHigh,
        String importanceSamplingLevel,
        Double kimiK2Tau,
        boolean maskProbRatio,
        Double maxNegativeAdvantageImportanceSamplingWeight,
        boolean scaleRewards,
        boolean allowTrainingWithoutLogprobs,
        double klPenaltyCoef,
        Integer klPenaltyReferenceStep,
        String klPenaltySource,
        Integer klPenaltyStepLag,
        String klRefAdapterPath,
        int logprobCalculationChunkSize,
        double numTrajectoriesLearningRateMultiplierPower,
        Integer packedSequenceLength,
        boolean plotTensors,
        boolean scaleLearningRateByRewardStdDev,
        Double truncatedImportanceSampling) {
}
