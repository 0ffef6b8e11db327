package org.llmplatform.training.service.trainer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.llama.train.AdamW;
import org.llmplatform.llama.train.Logits;
import org.llmplatform.llama.train.LoraParameters;
import org.llmplatform.llama.train.SequenceActivations;
import org.llmplatform.llama.train.TrainableModel;
import org.llmplatform.model.events.TrainingJobConfig;
import org.llmplatform.training.service.trajectory.History;
import org.llmplatform.training.service.trajectory.TrajectoryGroup;

/**
 * One GRPO step on the llama2.c model (docs/training-service.md#grpo-step, docs/training-service.md#embedded-trainer): advantages per group, tokenisation with assistant masks,
 * one row per trainable group (its sequences run separately, which equals a packed row with block attention),
 * the CISPO/PPO loss, the hand-written backward pass into the LoRA matrices, and one AdamW step per row.
 * Deterministic: rows are shuffled with a seeded source and every sum runs in a fixed order (sequences of a row
 * are computed in parallel, each into its own gradient, and added up in sequence order).
 */
public final class GrpoTrainer {

    private final LlamaEngine engine;
    private final TrainableModel model;
    private final TrainerSettings settings;
    private final ExecutorService pool;

    /** {@code pool} computes the sequences of a row side by side; their gradients are summed in sequence order. */
    public GrpoTrainer(LlamaEngine engine, TrainableModel model, TrainerSettings settings, ExecutorService pool) {
        this.engine = engine;
        this.model = model;
        this.settings = settings;
        this.pool = pool;
    }

    /** The adapter of step 0: seeded A, B = 0, so it computes what the base model does. */
    public LoraAdapter initialAdapter() {
        return LoraAdapter.identity(engine.config(), settings.loraRank(), settings.loraAlpha(), settings.seed());
    }

    /** A sequence of a row with its per-token advantage and weight. */
    private record RowSequence(TokenizedSequence tokens, double[] advantages, double[] weights) {
    }

    public TrainingOutcome train(List<TrajectoryGroup> groups, TrainingJobConfig config, LoraAdapter parent, int parentStep,
            StepListener listener) {
        GroupAdvantages advantages = GroupAdvantages.of(groups, config.scaleRewards());
        List<List<RowSequence>> rows = rows(advantages, config);
        Collections.shuffle(rows, new Random(settings.seed() + parentStep));
        LoraParameters lora = LoraParameters.of(engine.config(), parent);
        PolicyLoss loss = new PolicyLoss(config);
        if (config.precalculateLogprobs()) {
            precalculate(rows, lora);
        }
        LoraParameters reference = loss.usesKl() ? lora.zerosLike() : null;
        double learningRate = learningRate(config, advantages);
        Map<String, Double> jobMetrics = new LinkedHashMap<>();
        jobMetrics.put("reward", advantages.rewardMean());
        jobMetrics.put("reward_std_dev", advantages.rewardStdDev());
        jobMetrics.put("num_groups_submitted", (double) advantages.groupsSubmitted());
        jobMetrics.put("num_groups_trainable", (double) advantages.trainableGroups().size());
        jobMetrics.put("num_trajectories", (double) advantages.trajectories());

        listener.started(rows.size());
        AdamW optimizer = new AdamW(lora, AdamW.Settings.art());
        Map<String, Double> sums = new LinkedHashMap<>();
        long trainedTokens = 0;
        for (int r = 0; r < rows.size(); r++) {
            if (listener.cancelled()) {
                throw new JobCancelledException("(cancelled during row " + (r + 1) + ")");
            }
            long started = System.nanoTime();
            List<RowSequence> row = rows.get(r);
            int trainable = row.stream().mapToInt(sequence -> sequence.tokens().trainableTokens()).sum();
            double normaliser = 1.0 / (trainable + 1e-6);
            List<SequenceGradient> parts = InOrder.run(pool, row.stream()
                    .map(sequence -> (Callable<SequenceGradient>) () -> trainSequence(sequence, lora, reference, loss, normaliser))
                    .toList());
            LoraParameters gradients = lora.zerosLike();
            RowStatistics statistics = new RowStatistics();
            for (SequenceGradient part : parts) {
                gradients.add(part.gradients());
                statistics.add(part.statistics());
            }
            for (RowSequence sequence : row) {
                trainedTokens += sequence.tokens().tokens().length;
            }
            double gradNorm = optimizer.step(gradients, learningRate);
            double seconds = (System.nanoTime() - started) / 1e9;
            Map<String, Double> metrics = new LinkedHashMap<>();
            metrics.put("step", (double) (r + 1));
            metrics.put("loss", statistics.policyLoss + config.klPenaltyCoef() * statistics.kl);
            metrics.put("policy_loss", statistics.policyLoss);
            if (loss.usesKl()) {
                metrics.put("kl_div", statistics.kl);
            }
            metrics.put("grad_norm", gradNorm);
            metrics.put("entropy", statistics.entropySum / Math.max(1, trainable));
            metrics.put("learning_rate", learningRate);
            metrics.put("num_trainable_tokens", (double) trainable);
            statistics.probabilityCorrelation().ifPresent(correlation -> metrics.put("probs_corr", correlation));
            metrics.put("tokens_per_second", row.stream().mapToInt(s -> s.tokens().tokens().length).sum() / Math.max(seconds, 1e-9));
            metrics.putAll(jobMetrics);
            listener.gradientStep(metrics);
            metrics.forEach((name, value) -> sums.merge(name, value, Double::sum));
        }
        Map<String, Double> averaged = new LinkedHashMap<>(jobMetrics);
        sums.forEach((name, sum) -> {
            if (!jobMetrics.containsKey(name) && !name.equals("step")) {
                averaged.put(name, sum / rows.size());
            }
        });
        averaged.put("num_gradient_steps", (double) rows.size());
        return new TrainingOutcome(rows.isEmpty() ? parent : lora.toAdapter(), averaged, rows.size(), trainedTokens);
    }

    /** One sequence's contribution to its row: gradients and statistics, summed by the caller in sequence order. */
    private record SequenceGradient(LoraParameters gradients, RowStatistics statistics) {
    }

    private SequenceGradient trainSequence(RowSequence sequence, LoraParameters lora, LoraParameters reference, PolicyLoss loss,
            double normaliser) {
        LoraParameters gradients = lora.zerosLike();
        RowStatistics statistics = new RowStatistics();
        int[] tokens = sequence.tokens().tokens();
        boolean[] trainable = sequence.tokens().trainable();
        SequenceActivations activations = model.forward(tokens, lora);
        double[][] logProbabilities = new double[tokens.length][];
        double[] newLogprobs = new double[tokens.length];
        for (int t = 1; t < tokens.length; t++) {
            if (trainable[t]) {
                logProbabilities[t] = Logits.logSoftmax(activations.logits(t - 1));
                newLogprobs[t] = logProbabilities[t][tokens[t]];
                statistics.entropySum += Logits.entropy(logProbabilities[t]);
                statistics.observe(sequence.tokens().oldLogprobs()[t], newLogprobs[t]);
            }
        }
        double[] referenceLogprobs = reference == null ? null : logprobs(tokens, trainable, reference);
        PolicyLoss.SequenceTerms terms = loss.evaluate(newLogprobs, sequence.tokens().oldLogprobs(), referenceLogprobs,
                trainable, sequence.advantages(), sequence.weights(), normaliser);
        statistics.policyLoss += terms.policyLoss();
        statistics.kl += terms.klDivergence();
        double[][] logitGradients = new double[tokens.length][];
        for (int t = 1; t < tokens.length; t++) {
            double coefficient = terms.logprobGradient()[t];
            if (trainable[t] && coefficient != 0) {
                logitGradients[t - 1] = Logits.logProbabilityGradient(logProbabilities[t], tokens[t], coefficient);
            }
        }
        model.backward(activations, logitGradients, lora, gradients);
        return new SequenceGradient(gradients, statistics);
    }

    private double[] logprobs(int[] tokens, boolean[] trainable, LoraParameters lora) {
        SequenceActivations activations = model.forward(tokens, lora);
        double[] out = new double[tokens.length];
        for (int t = 1; t < tokens.length; t++) {
            if (trainable[t]) {
                out[t] = Logits.logSoftmax(activations.logits(t - 1))[tokens[t]];
            }
        }
        return out;
    }

    private void precalculate(List<List<RowSequence>> rows, LoraParameters lora) {
        List<RowSequence> all = rows.stream().flatMap(List::stream).toList();
        List<double[]> computed = InOrder.run(pool, all.stream()
                .map(sequence -> (Callable<double[]>) () -> logprobs(sequence.tokens().tokens(), sequence.tokens().trainable(), lora))
                .toList());
        for (int s = 0; s < all.size(); s++) {
            double[] old = all.get(s).tokens().oldLogprobs();
            for (int t = 0; t < old.length; t++) {
                old[t] = all.get(s).tokens().trainable()[t] ? computed.get(s)[t] : Double.NaN;
            }
        }
    }

    private double learningRate(TrainingJobConfig config, GroupAdvantages advantages) {
        double rate = config.learningRate() * settings.learningRateMultiplier();
        if (config.numTrajectoriesLearningRateMultiplierPower() != 0 && advantages.trajectories() > 0) {
            rate *= Math.pow(advantages.trajectories(), config.numTrajectoriesLearningRateMultiplierPower());
        }
        if (config.scaleLearningRateByRewardStdDev()) {
            rate *= advantages.rewardStdDev();
        }
        return rate;
    }

    /**
     * One row per trainable group: every trajectory's main conversation and additional histories, sharing its
     * advantage, each trajectory weighted 1 / its trainable tokens, weights normalised to mean 1 over the row.
     */
    private List<List<RowSequence>> rows(GroupAdvantages advantages, TrainingJobConfig config) {
        ConversationTokenizer tokenizer = new ConversationTokenizer(engine, config.allowTrainingWithoutLogprobs());
        List<List<RowSequence>> rows = new ArrayList<>();
        for (List<GroupAdvantages.ScoredTrajectory> group : advantages.trainableGroups()) {
            List<RowSequence> row = new ArrayList<>();
            for (GroupAdvantages.ScoredTrajectory scored : group) {
                List<TokenizedSequence> sequences = new ArrayList<>();
                tokenizer.tokenize(scored.trajectory().messagesAndChoices()).ifPresent(sequences::add);
                for (History history : scored.trajectory().additionalHistoriesOrEmpty()) {
                    tokenizer.tokenize(history.messagesAndChoices()).ifPresent(sequences::add);
                }
                int trajectoryTokens = sequences.stream().mapToInt(TokenizedSequence::trainableTokens).sum();
                for (TokenizedSequence sequence : sequences) {
                    int length = sequence.tokens().length;
                    double[] advantage = new double[length];
                    double[] weight = new double[length];
                    for (int t = 0; t < length; t++) {
                        if (sequence.trainable()[t]) {
                            advantage[t] = scored.advantage();
                            weight[t] = 1.0 / trajectoryTokens;
                        }
                    }
                    row.add(new RowSequence(sequence, advantage, weight));
                }
            }
            if (!row.isEmpty()) {
                normalise(row, config.advantageBalance());
                rows.add(row);
            }
        }
        return rows;
    }

    /** Weights to mean 1 over the row's trainable tokens; then the optional advantage balance (docs/training-service.md#advantages, last point). */
    private static void normalise(List<RowSequence> row, double balance) {
        double weightSum = 0;
        int count = 0;
        for (RowSequence sequence : row) {
            for (int t = 0; t < sequence.weights().length; t++) {
                if (sequence.tokens().trainable()[t]) {
                    weightSum += sequence.weights()[t];
                    count++;
                }
            }
        }
        double factor = count / weightSum;
        double absoluteSum = 0;
        for (RowSequence sequence : row) {
            for (int t = 0; t < sequence.weights().length; t++) {
                if (!sequence.tokens().trainable()[t]) {
                    continue;
                }
                sequence.weights()[t] *= factor;
                double a = sequence.advantages()[t];
                if (balance > 0 && a < 0) {
                    sequence.advantages()[t] = a * (1 - balance);
                } else if (balance < 0 && a > 0) {
                    sequence.advantages()[t] = a * (1 + balance);
                }
                absoluteSum += sequence.weights()[t] * Math.abs(sequence.advantages()[t]);
            }
        }
        if (balance != 0 && absoluteSum > 0) {
            double rescale = count / absoluteSum;
            for (RowSequence sequence : row) {
                for (int t = 0; t < sequence.advantages().length; t++) {
                    sequence.advantages()[t] *= rescale;
                }
            }
        }
    }

    /** Sums over a row's trainable tokens, and the sampler-vs-trainer probability correlation. */
    private static final class RowStatistics {
        double policyLoss;
        double kl;
        double entropySum;
        private int pairs;
        private double sumOld;
        private double sumNew;
        private double sumOldSquared;
        private double sumNewSquared;
        private double sumProduct;

        void add(RowStatistics other) {
            policyLoss += other.policyLoss;
            kl += other.kl;
            entropySum += other.entropySum;
            pairs += other.pairs;
            sumOld += other.sumOld;
            sumNew += other.sumNew;
            sumOldSquared += other.sumOldSquared;
            sumNewSquared += other.sumNewSquared;
            sumProduct += other.sumProduct;
        }

        void observe(double oldLogprob, double newLogprob) {
            if (Double.isNaN(oldLogprob)) {
                return;
            }
            double p = Math.exp(oldLogprob);
            double q = Math.exp(newLogprob);
            pairs++;
            sumOld += p;
            sumNew += q;
            sumOldSquared += p * p;
            sumNewSquared += q * q;
            sumProduct += p * q;
        }

        Optional<Double> probabilityCorrelation() {
            if (pairs < 2) {
                return Optional.empty();
            }
            double covariance = sumProduct - sumOld * sumNew / pairs;
            double varianceOld = sumOldSquared - sumOld * sumOld / pairs;
            double varianceNew = sumNewSquared - sumNew * sumNew / pairs;
            if (varianceOld <= 0 || varianceNew <= 0) {
                return Optional.empty();
            }
            return Optional.of(covariance / Math.sqrt(varianceOld * varianceNew));
        }
    }
}
