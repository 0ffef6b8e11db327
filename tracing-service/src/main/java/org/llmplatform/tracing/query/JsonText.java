package org.llmplatform.tracing.query;

/** Text as PostgreSQL prints it inside a JSON string of a jsonb value (its {@code escape_json}). */
public final class JsonText {

    /** How many characters one character may become. */
    public static final int MAX_GROWTH = 6;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonText() {
    }

    public static String escaped(String text) {
        char[] escaped = new char[MAX_GROWTH * text.length()];
        return new String(escaped, 0, escape(text.toCharArray(), 0, text.length(), escaped));
    }

    /**
     * Writes {@code text[offset, offset + length)} escaped into {@code into} (room for {@link #MAX_GROWTH} characters
     * each) and answers how many it wrote.
     */
    public static int escape(char[] text, int offset, int length, char[] into) {
        int at = 0;
        for (int i = offset; i < offset + length; i++) {
            char next = text[i];
            char shortEscape = switch (next) {
                case '"' -> '"';
                case '\\' -> '\\';
                case '\b' -> 'b';
                case '\f' -> 'f';
                case '\n' -> 'n';
                case '\r' -> 'r';
                case '\t' -> 't';
                default -> 0;
            };
            if (shortEscape != 0) {
                into[at++] = '\\';
                into[at++] = shortEscape;
            } else if (next < 0x20) {
                into[at++] = '\\';
                into[at++] = 'u';
                into[at++] = '0';
                into[at++] = '0';
                into[at++] = HEX[next >> 4];
                into[at++] = HEX[next & 0xf];
            } else {
                into[at++] = next;
            }
        }
        return at;
    }
}
