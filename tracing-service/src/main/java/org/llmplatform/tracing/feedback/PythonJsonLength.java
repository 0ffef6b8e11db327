package org.llmplatform.tracing.feedback;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * The length of Python's {@code json.dumps(value)} (separators {@code ", "} and {@code ": "},
 * non-ASCII escaped), which the reference measures a feedback payload by.
 */
final class PythonJsonLength {

    static long of(JsonNode value) {
        if (value.isTextual()) {
            return string(value.textValue());
        }
        if (value.isArray()) {
            long length = 2 + Math.max(0, value.size() - 1) * 2L;
            for (JsonNode element : value) {
                length += of(element);
            }
            return length;
        }
        if (value.isObject()) {
            long length = 2 + Math.max(0, value.size() - 1) * 2L;
            Iterator<Map.Entry<String, JsonNode>> fields = value.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                length += string(field.getKey()) + 2 + of(field.getValue());
            }
            return length;
        }
        return value.toString().length();
    }

    private static long string(String text) {
        long length = 2;
        for (int i = 0; i < text.length(); i++) {
            char next = text.charAt(i);
            if (next == '"' || next == '\\' || next == '\n' || next == '\r' || next == '\t' || next == '\b' || next == '\f') {
                length += 2;
            } else if (next < 0x20 || next > 0x7e) {
                length += 6;
            } else {
                length += 1;
            }
        }
        return length;
    }

    private PythonJsonLength() {
    }
}
