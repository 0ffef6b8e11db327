package org.llmplatform.training.runs;

import java.util.List;
import java.util.UUID;

/** A command of a run as the executor reads it, checked at admission ({@link RunCommands}). */
public sealed interface RunCommand {

    /** One token matrix of a batch: position t scores {@code targets[t]} after tokens 0..t. */
    record TokenSequence(String matrixId, int[] tokens, int[] targets, double[] weights, double[] advantages, double[] behaviorLogprobs) {
    }

    /** {@code forward} (loss and logprobs only) or {@code forward_backward} (its gradient is kept for the next optim_step). */
    record Forward(boolean backward, String lossName, double clipLow, double clipHigh, List<TokenSequence> sequences,
            boolean returnTokenLogprobs) implements RunCommand {
    }

    /** AdamW with the client's settings, over the gradients of the forward_backward operations since the last step. */
    record OptimStep(double learningRate, double beta1, double beta2, double eps, double weightDecay, double gradClipNorm)
            implements RunCommand {
    }

    /** Publishes the learner's adapter as the next checkpoint of {@code modelId}, served by the gateway. */
    record SaveWeightsForSampler(String checkpointName, String target, String modelAlias, UUID modelId) implements RunCommand {
    }

    /** Stores adapter and optimizer state under {@code checkpointName} of the run. */
    record SaveState(String checkpointName, boolean overwrite) implements RunCommand {
    }

    /** Replaces the learner with a saved state (its optimizer too when {@code restoreOptimizer}). */
    record LoadState(String checkpointId, boolean restoreOptimizer) implements RunCommand {
    }
}
