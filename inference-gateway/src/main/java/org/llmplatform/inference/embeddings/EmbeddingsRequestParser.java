package org.llmplatform.inference.embeddings;

import static org.llmplatform.inference.http.BodyReader.loc;
import static org.llmplatform.inference.http.BodyReader.present;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.llmplatform.inference.http.BodyReader;
import org.llmplatform.inference.http.PromptInput;
import org.llmplatform.support.error.ApiException;

/** Parses an embeddings body with pydantic's types and messages (422 naming the field); unknown fields are ignored. */
public final class EmbeddingsRequestParser {

    private EmbeddingsRequestParser() {
    }

    public static EmbeddingsRequest parse(JsonNode json) {
        BodyReader in = new BodyReader();
        if (!(json instanceof ObjectNode body)) {
            in.issue("dict_type", List.of("body"), "Input should be a valid dictionary",
                    json == null ? null : BodyReader.raw(json));
            throw ApiException.invalid(in.issues());
        }
        String model = in.string(present(body, "model"), loc("model"));
        String format = in.string(present(body, "encoding_format"), loc("encoding_format"));
        if (format != null && !format.equals("float") && !format.equals("base64")) {
            in.issue("literal_error", loc("encoding_format"), "Input should be 'float' or 'base64'", format);
        }
        Integer dimensions = in.integer(present(body, "dimensions"), loc("dimensions"));
        in.string(present(body, "user"), loc("user"));
        String requestId = in.string(present(body, "request_id"), loc("request_id"));
        JsonNode input = present(body, "input");
        if (input == null) {
            in.issue("missing", loc("input"), "Field required", null);
        }
        if (!in.issues().isEmpty()) {
            throw ApiException.invalid(in.issues());
        }
        return new EmbeddingsRequest(model, PromptInput.read(input, "input"), "base64".equals(format), dimensions,
                requestId);
    }
}
