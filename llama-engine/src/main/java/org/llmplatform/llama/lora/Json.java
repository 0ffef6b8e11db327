package org.llmplatform.llama.lora;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict, small JSON reader for the two adapter files (the engine has no JSON library): objects become
 * {@link LinkedHashMap}s, arrays {@link List}s, numbers {@link BigDecimal}s. Malformed input throws
 * {@link IllegalArgumentException} naming the offset.
 */
final class Json {

    private final String text;
    private final String what;
    private int at;

    private Json(String text, String what) {
        this.text = text;
        this.what = what;
    }

    static Object parse(String text, String what) {
        Json json = new Json(text, what);
        json.skipSpace();
        Object value = json.value(0);
        json.skipSpace();
        if (json.at != text.length()) {
            throw json.error("unexpected trailing content");
        }
        return value;
    }

    static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        out.append(String.format("\\u%04x", (int) ch));
                    } else {
                        out.append(ch);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private Object value(int depth) {
        if (depth > 64) {
            throw error("nesting is too deep");
        }
        if (at >= text.length()) {
            throw error("unexpected end");
        }
        char ch = text.charAt(at);
        return switch (ch) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> map = new LinkedHashMap<>();
        at++;
        skipSpace();
        if (peek() == '}') {
            at++;
            return map;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("expected a member name");
            }
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            if (map.containsKey(key)) {
                throw error("duplicate member " + key);
            }
            map.put(key, value(depth + 1));
            skipSpace();
            char next = next();
            if (next == '}') {
                return map;
            }
            if (next != ',') {
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array(int depth) {
        List<Object> list = new ArrayList<>();
        at++;
        skipSpace();
        if (peek() == ']') {
            at++;
            return list;
        }
        while (true) {
            skipSpace();
            list.add(value(depth + 1));
            skipSpace();
            char next = next();
            if (next == ']') {
                return list;
            }
            if (next != ',') {
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() {
        at++;
        StringBuilder out = new StringBuilder();
        while (true) {
            char ch = next();
            if (ch == '"') {
                return out.toString();
            }
            if (ch < 0x20) {
                throw error("control character in a string");
            }
            if (ch != '\\') {
                out.append(ch);
                continue;
            }
            char escape = next();
            switch (escape) {
                case '"', '\\', '/' -> out.append(escape);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("short \\u escape");
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    } catch (NumberFormatException e) {
                        throw error("bad \\u escape");
                    }
                    at += 4;
                }
                default -> throw error("bad escape \\" + escape);
            }
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("unexpected character");
        }
        at += word.length();
        return value;
    }

    private BigDecimal number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        if (start == at) {
            throw error("unexpected character '" + text.charAt(at) + "'");
        }
        try {
            return new BigDecimal(text.substring(start, at));
        } catch (NumberFormatException e) {
            throw error("malformed number");
        }
    }

    private void skipSpace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private char peek() {
        if (at >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(at);
    }

    private char next() {
        char ch = peek();
        at++;
        return ch;
    }

    private void expect(char ch) {
        if (next() != ch) {
            throw error("expected '" + ch + "'");
        }
    }

    private IllegalArgumentException error(String message) {
        return new IllegalArgumentException(what + " is not valid JSON: " + message + " at offset " + at);
    }
}
