package org.llmplatform.inference.chat;

import static org.llmplatform.inference.http.BodyReader.loc;
import static org.llmplatform.inference.http.BodyReader.present;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.llmplatform.inference.http.BodyReader;
import org.llmplatform.llama.ChatMessage;
import org.llmplatform.support.error.ApiException;

/**
 * Parses a chat-completions body against vLLM's {@code ChatCompletionRequest} (~v0.10.0): pydantic's
 * lax types, declared bounds and the model-level validators with their exact messages. Every problem
 * is collected into one 422. Unknown fields are allowed and ignored, as in vLLM.
 */
public final class ChatRequestParser {

    private static final BigInteger SEED_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger SEED_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private ChatRequestParser() {
    }

    public static ChatRequest parse(JsonNode json) {
        BodyReader in = new BodyReader();
        if (json == null || !json.isObject()) {
            in.issue("dict_type", List.of("body"), "Input should be a valid dictionary",
                    json == null ? null : BodyReader.raw(json));
            throw ApiException.invalid(in.issues());
        }
        ObjectNode body = (ObjectNode) json;
        List<ChatMessage> messages = messages(in, body);
        String model = in.string(present(body, "model"), loc("model"));
        double frequencyPenalty = or(in.number(present(body, "frequency_penalty"), loc("frequency_penalty")), 0.0);
        double presencePenalty = or(in.number(present(body, "presence_penalty"), loc("presence_penalty")), 0.0);
        Map<String, Double> logitBias = in.map(present(body, "logit_bias"), loc("logit_bias"), in::number);
        boolean logprobs = or(in.bool(present(body, "logprobs"), loc("logprobs")), false);
        Integer topLogprobs = in.integer(present(body, "top_logprobs"), loc("top_logprobs"));
        Integer maxTokens = in.integer(present(body, "max_tokens"), loc("max_tokens"));
        Integer maxCompletionTokens = in.integer(present(body, "max_completion_tokens"), loc("max_completion_tokens"));
        int n = or(in.integer(present(body, "n"), loc("n")), 1);
        Long seed = seed(in, body);
        List<String> stop = stop(in, body);
        boolean stream = or(in.bool(present(body, "stream"), loc("stream")), false);
        ChatRequest.StreamOptions streamOptions = streamOptions(in, body);
        Double temperature = in.number(present(body, "temperature"), loc("temperature"));
        Double topP = in.number(present(body, "top_p"), loc("top_p"));
        Integer topK = in.integer(present(body, "top_k"), loc("top_k"));
        Double minP = in.number(present(body, "min_p"), loc("min_p"));
        Double repetitionPenalty = in.number(present(body, "repetition_penalty"), loc("repetition_penalty"));
        List<Integer> stopTokenIds = or(in.list(present(body, "stop_token_ids"), loc("stop_token_ids"), in::integer), List.of());
        boolean includeStop = or(in.bool(present(body, "include_stop_str_in_output"), loc("include_stop_str_in_output")), false);
        boolean ignoreEos = or(in.bool(present(body, "ignore_eos"), loc("ignore_eos")), false);
        int minTokens = or(in.integer(present(body, "min_tokens"), loc("min_tokens")), 0);
        Integer truncate = in.integer(present(body, "truncate_prompt_tokens"), loc("truncate_prompt_tokens"));
        in.atLeast(truncate, 1, loc("truncate_prompt_tokens"));
        Integer promptLogprobs = in.integer(present(body, "prompt_logprobs"), loc("prompt_logprobs"));
        List<Integer> allowed = in.list(present(body, "allowed_token_ids"), loc("allowed_token_ids"), in::integer);
        List<String> badWords = or(in.list(present(body, "bad_words"), loc("bad_words"), in::string), List.of());
        boolean echo = or(in.bool(present(body, "echo"), loc("echo")), false);
        boolean addGenerationPrompt = or(in.bool(present(body, "add_generation_prompt"), loc("add_generation_prompt")), true);
        boolean continueFinal = or(in.bool(present(body, "continue_final_message"), loc("continue_final_message")), false);
        String guidedRegex = in.string(present(body, "guided_regex"), loc("guided_regex"));
        List<String> guidedChoice = in.list(present(body, "guided_choice"), loc("guided_choice"), in::string);
        JsonNode guidedJson = present(body, "guided_json");
        String guidedGrammar = in.string(present(body, "guided_grammar"), loc("guided_grammar"));
        in.string(present(body, "structural_tag"), loc("structural_tag"));
        in.string(present(body, "guided_whitespace_pattern"), loc("guided_whitespace_pattern"));
        String backend = in.string(present(body, "guided_decoding_backend"), loc("guided_decoding_backend"));
        String responseFormat = responseFormat(in, body);
        int priority = or(in.integer(present(body, "priority"), loc("priority")), 0);
        String requestId = in.string(present(body, "request_id"), loc("request_id"));
        boolean logitsProcessors = in.list(present(body, "logits_processors"), loc("logits_processors"),
                (value, at) -> value) != null;
        boolean tokensAsIds = or(in.bool(present(body, "return_tokens_as_token_ids"), loc("return_tokens_as_token_ids")), false);
        Integer bestOf = in.integer(present(body, "best_of"), loc("best_of"));
        boolean beamSearch = or(in.bool(present(body, "use_beam_search"), loc("use_beam_search")), false);
        acceptedButUnused(in, body);
        toolChoice(in, body);

        if (!in.issues().isEmpty()) {
            throw ApiException.invalid(in.issues());
        }
        JsonNode cacheSalt = body.get("cache_salt");
        List<String> problems = new ArrayList<>();
        if (streamOptions != null && !stream) {
            problems.add("Stream options can only be defined when `stream=True`.");
        }
        if (promptLogprobs != null && promptLogprobs > 0 && stream) {
            problems.add("`prompt_logprobs` are not available when `stream=True`.");
        }
        if (promptLogprobs != null && promptLogprobs < 0) {
            problems.add("`prompt_logprobs` must be a positive value.");
        }
        if (topLogprobs != null && topLogprobs < 0) {
            problems.add("`top_logprobs` must be a positive value.");
        }
        if (topLogprobs != null && topLogprobs > 0 && !logprobs) {
            problems.add("when using `top_logprobs`, `logprobs` must be set to true.");
        }
        if ((guidedJson != null ? 1 : 0) + (guidedRegex != null ? 1 : 0) + (guidedChoice != null ? 1 : 0) > 1) {
            problems.add("You can only use one kind of guided decoding ('guided_json', 'guided_regex' or 'guided_choice').");
        }
        if (continueFinal && addGenerationPrompt) {
            problems.add("Cannot set both `continue_final_message` and `add_generation_prompt` to True.");
        }
        if (cacheSalt != null && !cacheSalt.isNull() && (!cacheSalt.isTextual() || cacheSalt.textValue().isEmpty())) {
            problems.add("Parameter 'cache_salt' must be a non-empty string if provided.");
        }
        if (!problems.isEmpty()) {
            problems.forEach(message -> in.issue("value_error", List.of("body"), "Value error, " + message, body));
            throw ApiException.invalid(in.issues());
        }
        return new ChatRequest(messages, model, frequencyPenalty, presencePenalty, logitBias, logprobs,
                or(topLogprobs, 0), maxCompletionTokens != null ? maxCompletionTokens : maxTokens, n, seed, stop,
                stream, streamOptions, temperature, topP, topK, minP, repetitionPenalty, stopTokenIds, includeStop,
                ignoreEos, minTokens, truncate, promptLogprobs, allowed, badWords, echo, addGenerationPrompt,
                continueFinal, guidedRegex, guidedChoice, guidedJson != null, guidedGrammar != null, backend,
                responseFormat, priority, requestId, logitsProcessors, tokensAsIds, bestOf, beamSearch,
                firstPartNotText(body));
    }

    private static List<ChatMessage> messages(BodyReader in, ObjectNode body) {
        JsonNode value = present(body, "messages");
        if (value == null) {
            in.issue("missing", loc("messages"), "Field required", null);
            return List.of();
        }
        List<ChatMessage> messages = in.list(value, loc("messages"), (item, at) -> message(in, item, at));
        return messages == null ? List.of() : messages;
    }

    private static ChatMessage message(BodyReader in, JsonNode item, List<Object> at) {
        ObjectNode message = in.dict(item, at);
        if (message == null) {
            return null;
        }
        JsonNode roleNode = present(message, "role");
        if (roleNode == null) {
            in.issue("missing", BodyReader.child(at, "role"), "Field required", null);
            return null;
        }
        String role = in.string(roleNode, BodyReader.child(at, "role"));
        String content = content(in, present(message, "content"), BodyReader.child(at, "content"));
        return role == null ? null : new ChatMessage(role, content == null ? "" : content);
    }

    /**
     * A string, or OpenAI's content parts of which the text parts are joined. Image, audio and file parts are checked
     * for their shape and kept in the body only, for an upstream that reads them ({@link #firstPartNotText}).
     */
    private static String content(BodyReader in, JsonNode value, List<Object> at) {
        if (value == null || value.isTextual()) {
            return value == null ? null : value.textValue();
        }
        List<String> parts = in.list(value, at, (part, partAt) -> {
            ObjectNode object = in.dict(part, partAt);
            if (object == null) {
                return null;
            }
            String type = in.string(present(object, "type"), BodyReader.child(partAt, "type"));
            if (type == null) {
                return null;
            }
            switch (type) {
                case "text" -> {
                    return Objects.requireNonNullElse(in.string(present(object, "text"), BodyReader.child(partAt, "text")), "");
                }
                case "image_url" -> requiredStrings(in, object, partAt, "image_url", "url");
                case "input_audio" -> requiredStrings(in, object, partAt, "input_audio", "data", "format");
                case "file" -> in.dict(required(in, object, partAt, "file"), BodyReader.child(partAt, "file"));
                default -> in.issue("literal_error", BodyReader.child(partAt, "type"),
                        "Input should be 'text', 'image_url', 'input_audio' or 'file'", type);
            }
            return null;
        });
        return parts == null ? null : String.join("\n", parts.stream().filter(Objects::nonNull).toList());
    }

    /** The part's object {@code field}, required, with each of {@code strings} a required string in it. */
    private static void requiredStrings(BodyReader in, ObjectNode part, List<Object> at, String field, String... strings) {
        ObjectNode object = in.dict(required(in, part, at, field), BodyReader.child(at, field));
        if (object != null) {
            for (String name : strings) {
                in.string(required(in, object, BodyReader.child(at, field), name), BodyReader.child(BodyReader.child(at, field), name));
            }
        }
    }

    private static JsonNode required(BodyReader in, ObjectNode object, List<Object> at, String field) {
        JsonNode value = present(object, field);
        if (value == null) {
            in.issue("missing", BodyReader.child(at, field), "Field required", null);
        }
        return value;
    }

    /**
     * Where the first content part that is not text is ({@code messages[0].content[1]}), or null: a model that reads
     * text only refuses it by that name; an upstream gets the parts as they came.
     */
    static String firstPartNotText(ObjectNode body) {
        JsonNode messages = body.path("messages");
        for (int m = 0; m < messages.size(); m++) {
            JsonNode content = messages.get(m).path("content");
            if (content.isArray()) {
                for (int p = 0; p < content.size(); p++) {
                    if (!"text".equals(content.get(p).path("type").asText())) {
                        return "messages[" + m + "].content[" + p + "]";
                    }
                }
            }
        }
        return null;
    }

    private static Long seed(BodyReader in, ObjectNode body) {
        BigInteger seed = in.bigInteger(present(body, "seed"), loc("seed"));
        if (seed == null) {
            return null;
        }
        if (seed.compareTo(SEED_MIN) < 0) {
            in.issue("greater_than_equal", loc("seed"), "Input should be greater than or equal to " + SEED_MIN, seed);
            return null;
        }
        if (seed.compareTo(SEED_MAX) > 0) {
            in.issue("less_than_equal", loc("seed"), "Input should be less than or equal to " + SEED_MAX, seed);
            return null;
        }
        return seed.longValue() == -1 ? null : seed.longValue();
    }

    private static List<String> stop(BodyReader in, ObjectNode body) {
        JsonNode value = present(body, "stop");
        if (value == null) {
            return List.of();
        }
        if (value.isTextual()) {
            return List.of(value.textValue());
        }
        return or(in.list(value, loc("stop"), in::string), List.of());
    }

    private static ChatRequest.StreamOptions streamOptions(BodyReader in, ObjectNode body) {
        ObjectNode options = in.dict(present(body, "stream_options"), loc("stream_options"));
        if (options == null) {
            return null;
        }
        return new ChatRequest.StreamOptions(
                or(in.bool(present(options, "include_usage"), loc("stream_options", "include_usage")), true),
                or(in.bool(present(options, "continuous_usage_stats"), loc("stream_options", "continuous_usage_stats")), false));
    }

    private static String responseFormat(BodyReader in, ObjectNode body) {
        ObjectNode format = in.dict(present(body, "response_format"), loc("response_format"));
        if (format == null) {
            return null;
        }
        String type = in.string(present(format, "type"), loc("response_format", "type"));
        if (type == null || !List.of("text", "json_object", "json_schema", "structural_tag").contains(type)) {
            in.issue("literal_error", loc("response_format", "type"),
                    "Input should be 'text', 'json_object', 'json_schema' or 'structural_tag'", type);
        }
        return type;
    }

    /** Our schema allows only {@code "none"} (stricter than vLLM, see docs/inference-gateway.md#request-schema). */
    private static void toolChoice(BodyReader in, ObjectNode body) {
        JsonNode choice = present(body, "tool_choice");
        if (choice != null && !(choice.isTextual() && "none".equals(choice.textValue()))) {
            in.issue("literal_error", loc("tool_choice"), "Input should be 'none'", BodyReader.raw(choice));
        }
    }

    /** Type-checked so a wrong type is a 422, then ignored: nothing in the embedded engine uses them. */
    private static void acceptedButUnused(BodyReader in, ObjectNode body) {
        in.list(present(body, "tools"), loc("tools"), in::dict);
        in.bool(present(body, "parallel_tool_calls"), loc("parallel_tool_calls"));
        in.string(present(body, "user"), loc("user"));
        in.number(present(body, "length_penalty"), loc("length_penalty"));
        in.bool(present(body, "skip_special_tokens"), loc("skip_special_tokens"));
        in.bool(present(body, "spaces_between_special_tokens"), loc("spaces_between_special_tokens"));
        in.bool(present(body, "add_special_tokens"), loc("add_special_tokens"));
        in.list(present(body, "documents"), loc("documents"), in::dict);
        in.string(present(body, "chat_template"), loc("chat_template"));
        in.dict(present(body, "chat_template_kwargs"), loc("chat_template_kwargs"));
        in.dict(present(body, "mm_processor_kwargs"), loc("mm_processor_kwargs"));
        in.dict(present(body, "kv_transfer_params"), loc("kv_transfer_params"));
        in.map(present(body, "engine_xargs"), loc("engine_xargs"), (value, at) -> {
            if (!value.isTextual() && !value.isNumber()) {
                in.issue("string_type", at, "Input should be a valid string", BodyReader.raw(value));
            }
            return value;
        });
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
