package org.llmplatform.tracing.query;

import java.util.ArrayList;
import java.util.List;

/** Dotted field names ({@code inputs.model}, {@code payload.metrics\.run}) as the steps of a JSON path. */
public final class FieldPaths {

    /** Splits on dots, except a backslash-escaped dot, which belongs to the key ({@code metrics\.run}). */
    public static List<String> split(String field) {
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        for (int i = 0; i < field.length(); i++) {
            char next = field.charAt(i);
            if (next == '\\' && i + 1 < field.length() && field.charAt(i + 1) == '.') {
                part.append('.');
                i++;
            } else if (next == '.') {
                parts.add(part.toString());
                part.setLength(0);
            } else {
                part.append(next);
            }
        }
        parts.add(part.toString());
        return parts;
    }

    private FieldPaths() {
    }
}
