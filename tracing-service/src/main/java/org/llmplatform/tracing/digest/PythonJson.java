package org.llmplatform.tracing.digest;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The text Python's {@code json.dumps(value, sort_keys=True)} writes: {@code ", "} and {@code ": "}
 * separators, every character outside printable ASCII as a lower-case {@code \\uXXXX} escape, keys
 * sorted by code point, floats in {@code repr} form and integers as given. Digests hash this text, so
 * it has to match the reference byte for byte.
 */
public final class PythonJson {

    public static String dumps(JsonNode value) {
        StringBuilder out = new StringBuilder(128);
        write(value, out);
        return out.toString();
    }

    private static void write(JsonNode value, StringBuilder out) {
        switch (value.getNodeType()) {
            case OBJECT -> writeObject(value, out);
            case ARRAY -> {
                out.append('[');
                for (int i = 0; i < value.size(); i++) {
                    if (i > 0) {
                        out.append(", ");
                    }
                    write(value.get(i), out);
                }
                out.append(']');
            }
            case STRING -> writeString(value.textValue(), out);
            case NUMBER -> writeNumber(value, out);
            case BOOLEAN -> out.append(value.booleanValue() ? "true" : "false");
            default -> out.append("null");
        }
    }

    private static void writeObject(JsonNode value, StringBuilder out) {
        List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(value.size());
        for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
            fields.add(it.next());
        }
        fields.sort((a, b) -> compareCodePoints(a.getKey(), b.getKey()));
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, JsonNode> field : fields) {
            if (!first) {
                out.append(", ");
            }
            first = false;
            writeString(field.getKey(), out);
            out.append(": ");
            write(field.getValue(), out);
        }
        out.append('}');
    }

    /** Python compares strings by code point; Java's compareTo by UTF-16 unit differs above U+FFFF. */
    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private static void writeString(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c >= ' ' && c <= '~') {
                        out.append(c);
                    } else {
                        // UTF-16 units: characters above U+FFFF come out as surrogate pairs, as in Python.
                        out.append("\\u").append(HEX[c >> 12 & 0xF]).append(HEX[c >> 8 & 0xF])
                                .append(HEX[c >> 4 & 0xF]).append(HEX[c & 0xF]);
                    }
                }
            }
        }
        out.append('"');
    }

    private static void writeNumber(JsonNode value, StringBuilder out) {
        if (value.isIntegralNumber()) {
            out.append(value.bigIntegerValue());
        } else {
            out.append(floatRepr(value.doubleValue()));
        }
    }

    /** Python's {@code repr(float)}: the shortest digits that read back as the same double. */
    public static String floatRepr(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "Infinity" : "-Infinity";
        }
        if (value == 0) {
            return 1 / value < 0 ? "-0.0" : "0.0";
        }
        BigDecimal shortest = shortestDigits(value);
        String digits = shortest.unscaledValue().abs().toString();
        // Python's decpt: the value is 0.<digits> * 10^decpt.
        int decpt = digits.length() - shortest.scale();
        StringBuilder out = new StringBuilder(24);
        if (value < 0) {
            out.append('-');
        }
        if (decpt > -4 && decpt <= 16) {
            if (decpt <= 0) {
                out.append("0.").append("0".repeat(-decpt)).append(digits);
            } else if (decpt >= digits.length()) {
                out.append(digits).append("0".repeat(decpt - digits.length())).append(".0");
            } else {
                out.append(digits, 0, decpt).append('.').append(digits, decpt, digits.length());
            }
        } else {
            out.append(digits.charAt(0));
            if (digits.length() > 1) {
                out.append('.').append(digits, 1, digits.length());
            }
            int exponent = decpt - 1;
            out.append('e').append(exponent < 0 ? '-' : '+');
            int magnitude = Math.abs(exponent);
            if (magnitude < 10) {
                out.append('0');
            }
            out.append(magnitude);
        }
        return out.toString();
    }

    private static BigDecimal shortestDigits(double value) {
        // Java's own digits round-trip and are almost always the shortest; only shorter ones need a search.
        int precision = strip(new BigDecimal(Double.toString(value))).precision();
        BigDecimal exact = new BigDecimal(value);
        if (precision <= 1 || exact.round(new MathContext(precision - 1, RoundingMode.HALF_EVEN)).doubleValue() != value) {
            BigDecimal nearest = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
            if (nearest.doubleValue() == value) {
                return strip(nearest);
            }
        }
        for (int digits = 1; digits < 17; digits++) {
            BigDecimal rounded = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
            if (rounded.doubleValue() == value) {
                return strip(rounded);
            }
        }
        return strip(exact.round(new MathContext(17, RoundingMode.HALF_EVEN)));
    }

    private static BigDecimal strip(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.unscaledValue().signum() == 0 ? BigDecimal.ZERO : stripped;
    }

    private PythonJson() {
    }
}
