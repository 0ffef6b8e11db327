package org.llmplatform.llama;

/** A token and its log-probability under the processed logits. */
public record TokenLogprob(int token, float logprob) {
}
