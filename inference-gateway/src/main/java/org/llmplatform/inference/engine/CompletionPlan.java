package org.llmplatform.inference.engine;

import org.llmplatform.inference.catalog.ServedModel;
import org.llmplatform.llama.SamplingParams;

/**
 * What the engine will run for one request: the prompt tokens, the sampling of every choice and how
 * the response is dressed (role, echoed text, logprobs).
 */
public record CompletionPlan(
        ServedModel model,
        int[] prompt,
        SamplingParams sampling,
        int choices,
        Long seed,
        String role,
        String echo,
        boolean logprobs,
        boolean tokensAsIds) {
}
