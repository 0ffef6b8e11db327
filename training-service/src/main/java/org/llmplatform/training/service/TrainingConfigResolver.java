package org.llmplatform.training.service;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.llmplatform.model.errors.ValidationIssue;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.model.events.TrainingJobConfig;

/**
 * ART's defaults for what the caller left unset (docs/training-service.md#training-defaults): learning rate 5e-6, the CISPO loss
 * with ε = 1.0 and ε_high = 4.0 (PPO, chosen by {@code ppo: true} or {@code loss_fn: "ppo"}, uses
 * ε = 0.2 and ε_high = ε), token-level importance sampling, rewards scaled by the group's standard
 * deviation ({@code normalize_advantages: false} turns that off too), no KL penalty, logprobs computed
 * in chunks of 1024 tokens.
 */
final class TrainingConfigResolver {

    static final double DEFAULT_LEARNING_RATE = 5e-6;
    private static final Set<String> IMPORTANCE_SAMPLING_LEVELS = Set.of("token", "sequence", "average", "geometric_average");
    private static final Set<String> KL_PENALTY_SOURCES = Set.of("current_learner", "sample");
    private static final Set<String> LOSS_FUNCTIONS = Set.of("cispo", "ppo");

    static TrainingJobConfig resolve(ExperimentalTrainingConfig given) {
        ExperimentalTrainingConfig config = given == null ? ExperimentalTrainingConfig.NONE : given;
        check(config);
        boolean ppo = Boolean.TRUE.equals(config.ppo()) || "ppo".equals(config.lossFn());
        double epsilon = or(config.epsilon(), ppo ? 0.2 : 1.0);
        double epsilonHigh = or(config.epsilonHigh(), ppo ? epsilon : 4.0);
        boolean scaleRewards = or(config.scaleRewards(), true) && or(config.normalizeAdvantages(), true);
        return new TrainingJobConfig(
                or(config.learningRate(), DEFAULT_LEARNING_RATE),
                or(config.precalculateLogprobs(), false),
                or(config.advantageBalance(), 0.0),
                ppo ? "ppo" : "cispo",
                epsilon,
                epsilonHigh,
                or(config.importanceSamplingLevel(), "token"),
                config.kimiK2Tau(),
                or(config.maskProbRatio(), false),
                config.maxNegativeAdvantageImportanceSamplingWeight(),
                scaleRewards,
                or(config.allowTrainingWithoutLogprobs(), false),
                or(config.klPenaltyCoef(), 0.0),
                config.klPenaltyReferenceStep(),
                or(config.klPenaltySource(), "current_learner"),
                config.klPenaltyStepLag(),
                config.klRefAdapterPath(),
                or(config.logprobCalculationChunkSize(), 1024),
                or(config.numTrajectoriesLearningRateMultiplierPower(), 0.0),
                config.packedSequenceLength(),
                or(config.plotTensors(), false),
                or(config.scaleLearningRateByRewardStdDev(), false),
                config.truncatedImportanceSampling());
    }

    private static void check(ExperimentalTrainingConfig config) {
        List<ValidationIssue> issues = new ArrayList<>();
        literal(issues, "importance_sampling_level", config.importanceSamplingLevel(), IMPORTANCE_SAMPLING_LEVELS);
        literal(issues, "kl_penalty_source", config.klPenaltySource(), KL_PENALTY_SOURCES);
        literal(issues, "loss_fn", config.lossFn(), LOSS_FUNCTIONS);
        if (config.learningRate() != null && !(config.learningRate() >= 0 && Double.isFinite(config.learningRate()))) {
            issues.add(new ValidationIssue("greater_than_equal", loc("learning_rate"), "Input should be greater than or equal to 0",
                    config.learningRate()));
        }
        if (config.advantageBalance() != null && !(config.advantageBalance() >= -1 && config.advantageBalance() <= 1)) {
            issues.add(new ValidationIssue("value_error", loc("advantage_balance"), "Value error, advantage_balance must lie in [-1.0, 1.0]",
                    config.advantageBalance()));
        }
        if (config.logprobCalculationChunkSize() != null && config.logprobCalculationChunkSize() < 1) {
            issues.add(new ValidationIssue("greater_than_equal", loc("logprob_calculation_chunk_size"),
                    "Input should be greater than or equal to 1", config.logprobCalculationChunkSize()));
        }
        if (config.packedSequenceLength() != null && config.packedSequenceLength() < 1) {
            issues.add(new ValidationIssue("greater_than_equal", loc("packed_sequence_length"), "Input should be greater than or equal to 1",
                    config.packedSequenceLength()));
        }
        if (!issues.isEmpty()) {
            throw ApiException.invalid(issues);
        }
    }

    private static void literal(List<ValidationIssue> issues, String field, String value, Set<String> allowed) {
        if (value != null && !allowed.contains(value)) {
            issues.add(new ValidationIssue("literal_error", loc(field),
                    "Input should be " + String.join(" or ", allowed.stream().sorted().map(choice -> "'" + choice + "'").toList()), value));
        }
    }

    private static List<Object> loc(String field) {
        return List.of("body", "experimental_config", field);
    }

    private static <T> T or(T value, T fallback) {
        return value == null ? fallback : value;
    }

    private TrainingConfigResolver() {
    }
}
