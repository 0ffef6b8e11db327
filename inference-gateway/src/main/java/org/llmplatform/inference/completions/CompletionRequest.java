package org.llmplatform.inference.completions;

import java.util.List;
import org.llmplatform.inference.chat.ChatRequest;
import org.llmplatform.inference.http.PromptInput;

/**
 * A parsed {@code POST /v1/completions} body: its prompts, and its sampling fields read as a chat request's (the two
 * share vLLM's sampling parameters, and the engine plans both the same way) with {@code logprobs} as
 * {@code top_logprobs} and vLLM's default of 16 {@code max_tokens}. {@code logprobs}: the alternatives asked for
 * (null: none); {@code echoOnly}: {@code echo} with {@code max_tokens: 0}, the prompt scored and nothing generated.
 */
public record CompletionRequest(List<PromptInput> prompts, ChatRequest sampling, Integer logprobs, boolean echo,
        boolean echoOnly, boolean hasSuffix) {

    public String model() {
        return sampling.model();
    }

    public boolean stream() {
        return sampling.stream();
    }

    public int choicesPerPrompt() {
        return sampling.n();
    }
}
