package org.llmplatform.inference.engine;

import jakarta.inject.Singleton;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;
import org.llmplatform.inference.catalog.ModelCatalog;
import org.llmplatform.inference.catalog.ServedModel;
import org.llmplatform.inference.chat.ChatRequest;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.http.OpenAiException;
import org.llmplatform.llama.ChatMessage;
import org.llmplatform.llama.SamplingParams;

/**
 * vLLM's serving-level checks (docs/inference-gateway.md#serving-checks, all 400 with vLLM's messages, 404 for an unknown
 * model) and the mapping of a valid request onto the engine's sampling parameters.
 */
@Singleton
public class CompletionPlanner {

    /** The name our server gives its structured-output backend: constrained sampling by regular expression. */
    static final String GUIDED_BACKEND = "regex";
    private static final double MIN_TEMPERATURE = 0.01;

    private final ModelCatalog catalog;
    private final GatewayConfig config;

    public CompletionPlanner(ModelCatalog catalog, GatewayConfig config) {
        this.catalog = catalog;
        this.config = config;
    }

    /** The configured model {@code id} names; none: the first served model. */
    public ServedModel model(String id, String requested) {
        if (id == null || id.isEmpty()) {
            return catalog.first().orElseThrow(() -> OpenAiException.modelNotFound(""));
        }
        return catalog.find(id).orElseThrow(() -> OpenAiException.modelNotFound(requested));
    }

    public CompletionPlan plan(ChatRequest request, ServedModel model) {
        check(request.firstPartNotText() == null, "Model `" + model.id() + "` reads text only: "
                + request.firstPartNotText() + " is not a text part.", request.firstPartNotText());
        int[] prompt = model.engine().encodeChat(request.messages());
        String role = request.addGenerationPrompt() || request.messages().isEmpty()
                ? "assistant" : request.messages().get(request.messages().size() - 1).role();
        return plan(request, prompt, "messages", model, role, echo(request, role));
    }

    /**
     * The plan of {@code prompt} (tokens; {@code promptField} names it in errors) sampled as {@code request} asks,
     * answered as {@code role} after {@code echo} (maybe null): a chat's, or a legacy completion's whose sampling
     * fields are a chat request's.
     */
    public CompletionPlan plan(ChatRequest request, int[] prompt, String promptField, ServedModel model, String role,
            String echo) {
        serverFeatures(request);
        int vocab = model.engine().tokenizer().vocabSize();
        check(prompt.length > 0, "The decoder prompt cannot be empty", promptField);
        int largest = Arrays.stream(prompt).max().getAsInt();
        check(largest < vocab && Arrays.stream(prompt).allMatch(token -> token >= 0),
                "Token id " + largest + " is out of vocabulary", promptField);
        if (request.truncatePromptTokens() != null && prompt.length > request.truncatePromptTokens()) {
            prompt = Arrays.copyOfRange(prompt, prompt.length - request.truncatePromptTokens(), prompt.length);
        }
        int context = model.maxModelLen();
        if (prompt.length >= context) {
            throw bad("This model's maximum context length is " + context + " tokens. However, your request has "
                    + prompt.length + " input tokens. Please reduce the length of the input " + promptField + ".",
                    promptField);
        }
        int maxTokens = request.maxTokens() != null ? request.maxTokens() : context - prompt.length;
        if (maxTokens > context - prompt.length) {
            throw bad("'max_tokens' or 'max_completion_tokens' is too large: " + maxTokens + ". This model's maximum"
                    + " context length is " + context + " tokens and your request has " + prompt.length
                    + " input tokens (" + maxTokens + " > " + context + " - " + prompt.length + ").", "max_tokens");
        }
        SamplingParams sampling = sampling(request, maxTokens, vocab);
        if (request.n() > 1 && sampling.greedy()) {
            throw bad("n must be 1 when using greedy sampling, got " + request.n() + ".", "n");
        }
        return new CompletionPlan(model, prompt, sampling, request.n(), request.seed(), role, echo,
                request.logprobs(), request.returnTokensAsTokenIds());
    }

    private void serverFeatures(ChatRequest request) {
        if (request.priority() != 0) {
            throw bad("Got priority " + request.priority() + " but Priority scheduling is not enabled.", "priority");
        }
        if (request.logitsProcessors()) {
            throw bad("The `logits_processors` argument is not supported by this server. See "
                    + "--logits-processor-pattern engine argugment for more information.", "logits_processors");
        }
        if (request.guidedDecodingBackend() != null && !GUIDED_BACKEND.equals(request.guidedDecodingBackend())) {
            throw bad("Request-level structured output backend selection is no longer supported. The request specified '"
                    + request.guidedDecodingBackend() + "', but vLLM was initialised with '" + GUIDED_BACKEND
                    + "'. This error can be resolved by removing backend selection from the request.",
                    "guided_decoding_backend");
        }
        if (request.guidedJson() || request.guidedGrammar()
                || (request.responseFormatType() != null && !"text".equals(request.responseFormatType()))) {
            throw bad("The embedded engine supports guided_choice and guided_regex only; guided_json, guided_grammar,"
                    + " structural tags and JSON response formats are not available.", null);
        }
        if (request.bestOf() != null && request.bestOf() > 1) {
            throw bad("best_of is not supported by this server.", "best_of");
        }
        if (request.useBeamSearch()) {
            throw bad("Beam search is not supported by this server.", "use_beam_search");
        }
        if (request.n() < 1) {
            throw bad("n must be at least 1, got " + request.n() + ".", "n");
        }
    }

    private SamplingParams sampling(ChatRequest request, int maxTokens, int vocab) {
        double temperature = request.temperature() == null ? 1.0 : request.temperature();
        double topP = request.topP() == null ? 1.0 : request.topP();
        int topK = request.topK() == null ? 0 : request.topK();
        double minP = request.minP() == null ? 0.0 : request.minP();
        double repetition = request.repetitionPenalty() == null ? 1.0 : request.repetitionPenalty();
        check(request.presencePenalty() >= -2 && request.presencePenalty() <= 2,
                "presence_penalty must be in [-2, 2], got " + request.presencePenalty() + ".", "presence_penalty");
        check(request.frequencyPenalty() >= -2 && request.frequencyPenalty() <= 2,
                "frequency_penalty must be in [-2, 2], got " + request.frequencyPenalty() + ".", "frequency_penalty");
        check(repetition > 0, "repetition_penalty must be greater than zero, got " + repetition + ".", "repetition_penalty");
        check(temperature >= 0, "temperature must be non-negative, got " + temperature + ".", "temperature");
        check(topP > 0 && topP <= 1, "top_p must be in (0, 1], got " + topP + ".", "top_p");
        check(topK >= -1, "top_k must be 0 (disable), or at least 1, got " + topK + ".", "top_k");
        check(minP >= 0 && minP <= 1, "min_p must be in [0, 1], got " + minP + ".", "min_p");
        check(maxTokens >= 1, "max_tokens must be at least 1, got " + maxTokens + ".", "max_tokens");
        check(request.minTokens() >= 0, "min_tokens must be greater than or equal to 0, got " + request.minTokens() + ".",
                "min_tokens");
        check(request.minTokens() <= maxTokens, "min_tokens must be less than or equal to max_tokens=" + maxTokens
                + ", got " + request.minTokens() + ".", "min_tokens");
        check(request.topLogprobs() <= config.limits().maxLogprobs(), "Requested sample logprobs of "
                + request.topLogprobs() + ", which is greater than max allowed: " + config.limits().maxLogprobs(), "top_logprobs");
        check(!request.stop().contains(""), "stop cannot contain an empty string.", "stop");
        check(!request.badWords().contains(""), "bad_words cannot contain an empty string.", "bad_words");
        if (temperature > 0 && temperature < MIN_TEMPERATURE) {
            temperature = MIN_TEMPERATURE;
        }
        return SamplingParams.builder()
                .temperature((float) temperature)
                .topP((float) topP)
                .topK(Math.max(0, topK))
                .minP((float) minP)
                .seed(request.seed())
                .presencePenalty((float) request.presencePenalty())
                .frequencyPenalty((float) request.frequencyPenalty())
                .repetitionPenalty((float) repetition)
                .logitBias(logitBias(request.logitBias(), vocab))
                .allowedTokenIds(allowedTokenIds(request.allowedTokenIds(), vocab))
                .badWords(request.badWords())
                .stop(request.stop())
                .stopTokenIds(tokenIds(request.stopTokenIds(), vocab, "stop_token_ids"))
                .includeStopStrInOutput(request.includeStopStrInOutput())
                .ignoreEos(request.ignoreEos())
                .minTokens(request.minTokens())
                .maxTokens(maxTokens)
                .topLogprobs(request.logprobs() ? request.topLogprobs() : -1)
                .constraint(constraint(request))
                .build();
    }

    private static Map<Integer, Float> logitBias(Map<String, Double> bias, int vocab) {
        if (bias == null) {
            return Map.of();
        }
        Map<Integer, Float> out = new HashMap<>();
        List<String> invalid = bias.keySet().stream().filter(key -> tokenId(key, vocab) == null).toList();
        if (!invalid.isEmpty()) {
            throw bad("token_id(s) " + invalid + " in logit_bias contain out-of-vocab token ids. Vocabulary size: "
                    + vocab, "logit_bias");
        }
        bias.forEach((key, value) -> out.put(tokenId(key, vocab), (float) Math.max(-100, Math.min(100, value))));
        return out;
    }

    private static Integer tokenId(String key, int vocab) {
        try {
            int id = Integer.parseInt(key.trim());
            return id >= 0 && id < vocab ? id : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Set<Integer> allowedTokenIds(List<Integer> ids, int vocab) {
        if (ids == null) {
            return null;
        }
        check(!ids.isEmpty(), "allowed_token_ids is not None and empty!", "allowed_token_ids");
        return tokenIds(ids, vocab, "allowed_token_ids");
    }

    private static Set<Integer> tokenIds(List<Integer> ids, int vocab, String field) {
        check(ids.stream().allMatch(id -> id >= 0 && id < vocab), field + " contains out-of-vocab token id!", field);
        return Set.copyOf(ids);
    }

    private static Pattern constraint(ChatRequest request) {
        if (request.guidedChoice() != null) {
            check(!request.guidedChoice().isEmpty(), "guided_choice must name at least one choice.", "guided_choice");
            return Pattern.compile(request.guidedChoice().stream().map(Pattern::quote).collect(Collectors.joining("|")));
        }
        if (request.guidedRegex() != null) {
            try {
                return Pattern.compile(request.guidedRegex());
            } catch (PatternSyntaxException e) {
                throw bad("guided_regex is not a valid regular expression: " + e.getDescription(), "guided_regex");
            }
        }
        return null;
    }

    private static String echo(ChatRequest request, String role) {
        if (!request.echo() || request.messages().isEmpty()) {
            return null;
        }
        ChatMessage last = request.messages().get(request.messages().size() - 1);
        return last.role().equals(role) ? last.content() : null;
    }

    private static void check(boolean condition, String message, String param) {
        if (!condition) {
            throw bad(message, param);
        }
    }

    private static OpenAiException bad(String message, String param) {
        return OpenAiException.badRequest(message, param);
    }
}
