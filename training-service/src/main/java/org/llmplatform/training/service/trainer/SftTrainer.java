package org.llmplatform.training.service.trainer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.llama.train.AdamW;
import org.llmplatform.llama.train.Logits;
import org.llmplatform.llama.train.LoraParameters;
import org.llmplatform.llama.train.SequenceActivations;
import org.llmplatform.llama.train.TrainableModel;
import org.llmplatform.model.events.SftJobConfig;
import org.llmplatform.training.service.trajectory.ChatMessage;
import org.llmplatform.training.service.trajectory.ConversationItem;
import org.llmplatform.training.service.trajectory.SftExample;

/**
 * Supervised fine-tuning on the llama2.c model (docs/training-service.md#supervised-fine-tuning): the examples in
 * file order, {@code batch_size} at a time; per batch the mean cross-entropy over the tokens of the chosen assistant
 * turns (all, or each conversation's last), the hand-written backward pass into the LoRA matrices and one AdamW step
 * with that batch's learning rate (× the trainer's multiplier). Deterministic: sequences of a batch are computed in
 * parallel, each into its own gradient, and added up in example order.
 */
public final class SftTrainer {

    private final LlamaEngine engine;
    private final TrainableModel model;
    private final TrainerSettings settings;
    private final ExecutorService pool;

    public SftTrainer(LlamaEngine engine, TrainableModel model, TrainerSettings settings, ExecutorService pool) {
        this.engine = engine;
        this.model = model;
        this.settings = settings;
        this.pool = pool;
    }

    public TrainingOutcome train(List<SftExample> examples, SftJobConfig config, LoraAdapter parent, StepListener listener) {
        List<List<TokenizedSequence>> batches = batches(examples, config);
        if (config.learningRates().size() != batches.size()) {
            throw new IllegalArgumentException("the job has " + config.learningRates().size() + " learning rates for " + batches.size()
                    + " batches");
        }
        LoraParameters lora = LoraParameters.of(engine.config(), parent);
        AdamW optimizer = new AdamW(lora, AdamW.Settings.art());
        listener.started(batches.size());
        Map<String, Double> sums = new LinkedHashMap<>();
        long trainedTokens = 0;
        for (int b = 0; b < batches.size(); b++) {
            if (listener.cancelled()) {
                throw new JobCancelledException("(cancelled during batch " + (b + 1) + ")");
            }
            long started = System.nanoTime();
            List<TokenizedSequence> batch = batches.get(b);
            int trainable = batch.stream().mapToInt(TokenizedSequence::trainableTokens).sum();
            double learningRate = config.learningRates().get(b) * settings.learningRateMultiplier();
            LoraParameters gradients = lora.zerosLike();
            double lossSum = 0;
            for (SequenceLoss part : InOrder.run(pool, batch.stream()
                    .map(sequence -> (Callable<SequenceLoss>) () -> crossEntropy(sequence, lora, trainable))
                    .toList())) {
                gradients.add(part.gradients());
                lossSum += part.negativeLogLikelihood();
            }
            double gradNorm = trainable == 0 ? 0 : optimizer.step(gradients, learningRate);
            int batchTokens = batch.stream().mapToInt(sequence -> sequence.tokens().length).sum();
            trainedTokens += batchTokens;
            double seconds = (System.nanoTime() - started) / 1e9;
            Map<String, Double> metrics = new LinkedHashMap<>();
            metrics.put("step", (double) (b + 1));
            metrics.put("loss", trainable == 0 ? 0 : lossSum / trainable);
            metrics.put("grad_norm", gradNorm);
            metrics.put("learning_rate", learningRate);
            metrics.put("num_trainable_tokens", (double) trainable);
            metrics.put("num_trajectories", (double) batch.size());
            metrics.put("tokens_per_second", batchTokens / Math.max(seconds, 1e-9));
            listener.gradientStep(metrics);
            metrics.forEach((name, value) -> sums.merge(name, value, Double::sum));
        }
        Map<String, Double> averaged = new LinkedHashMap<>();
        sums.forEach((name, sum) -> {
            if (!name.equals("step")) {
                averaged.put(name, sum / batches.size());
            }
        });
        averaged.put("num_gradient_steps", (double) batches.size());
        return new TrainingOutcome(lora.toAdapter(), averaged, batches.size(), trainedTokens);
    }

    /** The mean negative log-likelihood, per target token, of the chosen assistant turns of one example under {@code adapter}. */
    public double crossEntropy(SftExample example, String assistantTurns, LoraAdapter adapter) {
        Optional<TokenizedSequence> sequence = tokenize(example, assistantTurns);
        if (sequence.isEmpty()) {
            throw new IllegalArgumentException("the example has no assistant token to score");
        }
        int trainable = sequence.get().trainableTokens();
        return crossEntropy(sequence.get(), LoraParameters.of(engine.config(), adapter), trainable).negativeLogLikelihood() / trainable;
    }

    /** The batches of tokenized examples; an example whose chosen turns have no token still counts in its batch's size. */
    private List<List<TokenizedSequence>> batches(List<SftExample> examples, SftJobConfig config) {
        int size = Math.max(1, config.batchSize());
        List<List<TokenizedSequence>> batches = new ArrayList<>();
        for (int start = 0; start < examples.size(); start += size) {
            List<TokenizedSequence> batch = new ArrayList<>();
            for (SftExample example : examples.subList(start, Math.min(examples.size(), start + size))) {
                tokenize(example, config.assistantTurns()).ifPresent(batch::add);
            }
            batches.add(batch);
        }
        return batches;
    }

    private Optional<TokenizedSequence> tokenize(SftExample example, String assistantTurns) {
        List<ConversationItem> messages = example.messages();
        boolean[] turns = new boolean[messages.size()];
        int lastAssistant = -1;
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof ChatMessage message && "assistant".equals(message.role())) {
                turns[i] = true;
                lastAssistant = i;
            }
        }
        if (SftJobConfig.ASSISTANT_TURNS_LAST.equals(assistantTurns)) {
            turns = new boolean[messages.size()];
            if (lastAssistant >= 0) {
                turns[lastAssistant] = true;
            }
        }
        return new ConversationTokenizer(engine, true).tokenize(messages, turns);
    }

    /** One sequence's summed negative log-likelihood and its gradient of the batch loss (the sum over the batch's {@code batchTokens}). */
    private record SequenceLoss(double negativeLogLikelihood, LoraParameters gradients) {
    }

    private SequenceLoss crossEntropy(TokenizedSequence sequence, LoraParameters lora, int batchTokens) {
        int[] tokens = sequence.tokens();
        boolean[] trainable = sequence.trainable();
        SequenceActivations activations = model.forward(tokens, lora);
        double[][] logitGradients = new double[tokens.length][];
        double negativeLogLikelihood = 0;
        for (int t = 1; t < tokens.length; t++) {
            if (trainable[t]) {
                double[] logProbabilities = Logits.logSoftmax(activations.logits(t - 1));
                negativeLogLikelihood -= logProbabilities[tokens[t]];
                logitGradients[t - 1] = Logits.logProbabilityGradient(logProbabilities, tokens[t], -1.0 / batchTokens);
            }
        }
        LoraParameters gradients = lora.zerosLike();
        model.backward(activations, logitGradients, lora, gradients);
        return new SequenceLoss(negativeLogLikelihood, gradients);
    }

}
