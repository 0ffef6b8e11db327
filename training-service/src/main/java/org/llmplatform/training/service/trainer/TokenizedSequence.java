package org.llmplatform.training.service.trainer;

/**
 * One conversation as the model sees it: {@code tokens} (BOS first), {@code trainable[t]} true where token t
 * was sampled by the policy (an assistant Choice), and {@code oldLogprobs[t]} the sampler's logprob of token t
 * (NaN where unknown: the ratio is then 1).
 */
public record TokenizedSequence(int[] tokens, boolean[] trainable, double[] oldLogprobs) {

    public int trainableTokens() {
        int count = 0;
        for (boolean b : trainable) {
            if (b) {
                count++;
            }
        }
        return count;
    }
}
