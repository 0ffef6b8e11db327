package org.llmplatform.training.runs;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.llmplatform.llama.lora.LoraAdapter;
import org.llmplatform.llama.train.AdamW;
import org.llmplatform.llama.train.Logits;
import org.llmplatform.llama.train.LoraParameters;
import org.llmplatform.llama.train.SequenceActivations;
import org.llmplatform.llama.train.TrainableModel;

/**
 * The learner of one run on the llama2.c model: the LoRA matrices, AdamW's moments and the gradient summed over the
 * forward_backward operations since the last optim_step. Computing a forward pass changes nothing; {@link #accumulate}
 * and {@link #step} do, so an operation cancelled while it ran leaves the learner as it was. One thread at a time.
 */
final class NativeLearner {

    private final TrainableModel model;
    private final LoraParameters parameters;
    private final AdamW optimizer;
    private final LoraParameters gradients;
    private final List<String> contributions = new ArrayList<>();

    NativeLearner(TrainableModel model, LoraParameters parameters, AdamW optimizer) {
        this.model = model;
        this.parameters = parameters;
        this.optimizer = optimizer;
        this.gradients = parameters.zerosLike();
    }

    static NativeLearner fresh(TrainableModel model, LoraAdapter adapter) {
        LoraParameters parameters = LoraParameters.of(model.config(), adapter);
        return new NativeLearner(model, parameters, new AdamW(parameters, AdamW.Settings.art()));
    }

    /** A saved learner: its adapter, and its optimizer's moments and steps when they are restored too. */
    static NativeLearner restored(TrainableModel model, LoraAdapter adapter, LoraAdapter firstMoment, LoraAdapter secondMoment, int steps) {
        LoraParameters parameters = LoraParameters.of(model.config(), adapter);
        if (firstMoment == null) {
            return new NativeLearner(model, parameters, new AdamW(parameters, AdamW.Settings.art()));
        }
        return new NativeLearner(model, parameters, new AdamW(parameters, AdamW.Settings.art(), LoraParameters.of(model.config(), firstMoment),
                LoraParameters.of(model.config(), secondMoment), steps));
    }

    /** What a forward pass computed: the mean loss over active tokens, each matrix's target logprobs, and the gradient. */
    record ForwardOutcome(double loss, int activeTokens, int tokens, int longest, List<float[]> targetLogprobs, LoraParameters gradient) {
    }

    /** Runs the batch; with {@code backward} the outcome carries the loss's gradient, for {@link #accumulate}. */
    ForwardOutcome forward(RunCommand.Forward command, BooleanSupplier cancelled) {
        int vocabulary = model.config().vocabSize();
        int context = model.config().seqLen();
        int active = 0;
        int tokens = 0;
        int longest = 0;
        for (RunCommand.TokenSequence sequence : command.sequences()) {
            if (sequence.tokens().length > context) {
                throw new InvalidBatchException("matrix '" + sequence.matrixId() + "' has " + sequence.tokens().length
                        + " tokens; the model's context is " + context);
            }
            for (int t = 0; t < sequence.tokens().length; t++) {
                if (sequence.tokens()[t] < 0 || sequence.tokens()[t] >= vocabulary || sequence.targets()[t] < 0
                        || sequence.targets()[t] >= vocabulary) {
                    throw new InvalidBatchException("matrix '" + sequence.matrixId() + "' has a token id outside the model's vocabulary of "
                            + vocabulary + " at position " + t);
                }
                if (active(command, sequence, t)) {
                    active++;
                }
            }
            tokens += sequence.tokens().length;
            longest = Math.max(longest, sequence.tokens().length);
        }
        double normaliser = 1.0 / Math.max(1, active);
        double lossSum = 0;
        List<float[]> logprobs = new ArrayList<>();
        LoraParameters gradient = command.backward() ? parameters.zerosLike() : null;
        for (RunCommand.TokenSequence sequence : command.sequences()) {
            if (cancelled.getAsBoolean()) {
                throw new OperationCancelledException();
            }
            int length = sequence.tokens().length;
            SequenceActivations activations = model.forward(sequence.tokens(), parameters);
            float[] targetLogprobs = new float[length];
            double[][] logitGradients = new double[length][];
            for (int t = 0; t < length; t++) {
                double[] logProbabilities = Logits.logSoftmax(activations.logits(t));
                double logprob = logProbabilities[sequence.targets()[t]];
                targetLogprobs[t] = (float) logprob;
                if (!active(command, sequence, t)) {
                    continue;
                }
                double coefficient = switch (command.lossName()) {
                    case "cross_entropy" -> -sequence.weights()[t];
                    case "importance_sampling" -> -Math.exp(logprob - sequence.behaviorLogprobs()[t]) * sequence.advantages()[t];
                    default -> -Math.min(Math.max(Math.exp(logprob - sequence.behaviorLogprobs()[t]), command.clipLow()), command.clipHigh())
                            * sequence.advantages()[t];
                };
                lossSum += "importance_sampling".equals(command.lossName()) ? coefficient : coefficient * logprob;
                if (gradient != null) {
                    logitGradients[t] = Logits.logProbabilityGradient(logProbabilities, sequence.targets()[t], coefficient * normaliser);
                }
            }
            if (gradient != null) {
                model.backward(activations, logitGradients, parameters, gradient);
            }
            logprobs.add(targetLogprobs);
        }
        return new ForwardOutcome(lossSum * normaliser, active, tokens, longest, logprobs, gradient);
    }

    /** A position carries loss where its weight (cross entropy) or its advantage (policy losses) is not zero. */
    private static boolean active(RunCommand.Forward command, RunCommand.TokenSequence sequence, int t) {
        return "cross_entropy".equals(command.lossName()) ? sequence.weights()[t] != 0 : sequence.advantages()[t] != 0;
    }

    void accumulate(ForwardOutcome outcome, String operationId) {
        gradients.add(outcome.gradient());
        contributions.add(operationId);
    }

    /** The forward_backward operations whose gradients the next step applies. */
    List<String> contributions() {
        return List.copyOf(contributions);
    }

    /** One AdamW update with the summed gradients, which it then clears; the item is the gradient norm before clipping. */
    double step(RunCommand.OptimStep command, double learningRate) {
        double norm = optimizer.step(gradients, learningRate, new AdamW.Settings(command.beta1(), command.beta2(), command.eps(),
                command.weightDecay(), command.gradClipNorm()));
        gradients.clear();
        contributions.clear();
        return norm;
    }

    LoraAdapter adapter() {
        return parameters.toAdapter();
    }

    LoraAdapter firstMoment() {
        return optimizer.firstMoment().toAdapter();
    }

    LoraAdapter secondMoment() {
        return optimizer.secondMoment().toAdapter();
    }

    int optimizerSteps() {
        return optimizer.steps();
    }

    /** What a run's batch holds that the model cannot take: the operation fails with code {@code invalid_batch}. */
    static final class InvalidBatchException extends RuntimeException {
        InvalidBatchException(String message) {
            super(message);
        }
    }

    /** The operation was cancelled while it ran; nothing it computed is kept. */
    static final class OperationCancelledException extends RuntimeException {
        OperationCancelledException() {
            super("cancelled", null, false, false);
        }
    }
}
