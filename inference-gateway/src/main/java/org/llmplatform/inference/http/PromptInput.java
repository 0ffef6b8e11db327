package org.llmplatform.inference.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.llmplatform.support.error.ApiException;

/**
 * One text of a legacy completion's {@code prompt} or an embeddings request's {@code input}: a string, or token ids
 * sent as they are. Both fields take vLLM's {@code str | list[str] | list[int] | list[list[int]]}.
 */
public record PromptInput(String text, int[] tokens) {

    public boolean isText() {
        return text != null;
    }

    /**
     * The inputs of {@code value}, the field {@code field} of a body: a schema error is a 422 naming it, an empty list
     * a 400 {@code "<field> cannot be empty"}.
     */
    public static List<PromptInput> read(JsonNode value, String field) {
        List<Object> loc = BodyReader.loc(field);
        if (value.isTextual()) {
            return List.of(new PromptInput(value.textValue(), null));
        }
        if (!value.isArray()) {
            throw invalid(loc, value);
        }
        if (value.isEmpty()) {
            throw OpenAiException.badRequest(field + " cannot be empty", field);
        }
        JsonNode first = value.get(0);
        if (first.isIntegralNumber()) {
            return List.of(new PromptInput(null, tokens(value, loc)));
        }
        List<PromptInput> inputs = new ArrayList<>(value.size());
        for (int i = 0; i < value.size(); i++) {
            JsonNode item = value.get(i);
            List<Object> at = BodyReader.child(loc, i);
            if (first.isTextual() && item.isTextual()) {
                inputs.add(new PromptInput(item.textValue(), null));
            } else if (first.isArray() && item.isArray() && !item.isEmpty()) {
                inputs.add(new PromptInput(null, tokens(item, at)));
            } else {
                throw invalid(at, item);
            }
        }
        return inputs;
    }

    private static int[] tokens(JsonNode ids, List<Object> loc) {
        int[] tokens = new int[ids.size()];
        for (int i = 0; i < tokens.length; i++) {
            JsonNode id = ids.get(i);
            if (!id.isIntegralNumber() || !id.canConvertToInt()) {
                throw ApiException.invalidField("int_type", BodyReader.child(loc, i),
                        "Input should be a valid integer", BodyReader.raw(id));
            }
            tokens[i] = id.intValue();
        }
        return tokens;
    }

    private static ApiException invalid(List<Object> loc, JsonNode value) {
        return ApiException.invalidField("union_type", loc,
                "Input should be a valid string, a list of strings, a list of token ids or a list of lists of token ids",
                BodyReader.raw(value));
    }
}
