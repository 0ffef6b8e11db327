package org.llmplatform.inference.chat;

import java.util.List;
import java.util.Map;
import org.llmplatform.llama.ChatMessage;

/**
 * A parsed {@code POST /v1/chat/completions} body with vLLM's defaults filled in. Fields the engine
 * cannot act on (tools with tool_choice none, documents, chat_template_kwargs, kv_transfer_params,
 * engine_xargs, …) are accepted by the parser and not kept; so are image, audio and file content parts, which an
 * upstream reads from the body and the engine refuses ({@code firstPartNotText} names the first).
 */
public record ChatRequest(
        List<ChatMessage> messages,
        String model,
        double frequencyPenalty,
        double presencePenalty,
        Map<String, Double> logitBias,
        boolean logprobs,
        int topLogprobs,
        Integer maxTokens,
        int n,
        Long seed,
        List<String> stop,
        boolean stream,
        StreamOptions streamOptions,
        Double temperature,
        Double topP,
        Integer topK,
        Double minP,
        Double repetitionPenalty,
        List<Integer> stopTokenIds,
        boolean includeStopStrInOutput,
        boolean ignoreEos,
        int minTokens,
        Integer truncatePromptTokens,
        Integer promptLogprobs,
        List<Integer> allowedTokenIds,
        List<String> badWords,
        boolean echo,
        boolean addGenerationPrompt,
        boolean continueFinalMessage,
        String guidedRegex,
        List<String> guidedChoice,
        boolean guidedJson,
        boolean guidedGrammar,
        String guidedDecodingBackend,
        String responseFormatType,
        int priority,
        String requestId,
        boolean logitsProcessors,
        boolean returnTokensAsTokenIds,
        Integer bestOf,
        boolean useBeamSearch,
        String firstPartNotText) {

    /** {@code stream_options}; include_usage defaults to true once the object is present. */
    public record StreamOptions(boolean includeUsage, boolean continuousUsageStats) {
    }
}
