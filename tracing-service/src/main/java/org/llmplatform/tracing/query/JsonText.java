package org.llmplatform.tracing.query;

/** Text as PostgreSQL prints it inside a JSON string of a jsonb value (its {@code escape_json}). */
public final class JsonText {

    private JsonText() {
    }

    public static String escaped(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char next = text.charAt(i);
            switch (next) {
                case '"' -> escaped.append("\\\"");
                case '\\' -> escaped.append("\\\\");
                case '\b' -> escaped.append("\\b");
                case '\f' -> escaped.append("\\f");
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '\t' -> escaped.append("\\t");
                default -> {
                    if (next < 0x20) {
                        escaped.append(String.format("\\u%04x", (int) next));
                    } else {
                        escaped.append(next);
                    }
                }
            }
        }
        return escaped.toString();
    }
}
