package org.llmplatform.inference.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.llmplatform.model.errors.ValidationIssue;

/**
 * Reads fields of a JSON body the way pydantic's lax mode does (numeric strings become numbers,
 * "yes"/"on"/"1" booleans, whole floats ints) and collects FastAPI-style issues instead of throwing,
 * so one 422 names every bad field.
 */
public final class BodyReader {

    private static final Set<String> TRUE = Set.of("true", "yes", "on", "1", "t", "y");
    private static final Set<String> FALSE = Set.of("false", "no", "off", "0", "f", "n");

    private final List<ValidationIssue> issues = new ArrayList<>();

    public List<ValidationIssue> issues() {
        return issues;
    }

    public void issue(String type, List<Object> loc, String msg, Object input) {
        issues.add(new ValidationIssue(type, loc, msg, input));
    }

    /** Built for every field of every request, so one array copy and no growing list. */
    public static List<Object> loc(Object... path) {
        Object[] loc = new Object[path.length + 1];
        loc[0] = "body";
        System.arraycopy(path, 0, loc, 1, path.length);
        return List.of(loc);
    }

    public static List<Object> child(List<Object> parent, Object key) {
        List<Object> loc = new ArrayList<>(parent);
        loc.add(key);
        return loc;
    }

    /** The field's value, or null when absent or JSON null. */
    public static JsonNode present(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        return value == null || value.isNull() ? null : value;
    }

    public Double number(JsonNode value, List<Object> loc) {
        if (value == null) {
            return null;
        }
        if (value.isNumber()) {
            return value.doubleValue();
        }
        if (value.isTextual()) {
            try {
                return Double.parseDouble(value.textValue().trim());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        issue("float_parsing", loc, "Input should be a valid number, unable to parse string as a number", raw(value));
        return null;
    }

    public BigInteger bigInteger(JsonNode value, List<Object> loc) {
        if (value == null) {
            return null;
        }
        if (value.isIntegralNumber()) {
            return value.bigIntegerValue();
        }
        if (value.isFloatingPointNumber()) {
            BigDecimal decimal = value.decimalValue();
            if (decimal.stripTrailingZeros().scale() <= 0) {
                return decimal.toBigInteger();
            }
            issue("int_from_float", loc, "Input should be a valid integer, got a number with a fractional part", raw(value));
            return null;
        }
        if (value.isTextual()) {
            try {
                return new BigInteger(value.textValue().trim());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        issue("int_parsing", loc, "Input should be a valid integer, unable to parse string as an integer", raw(value));
        return null;
    }

    public Integer integer(JsonNode value, List<Object> loc) {
        BigInteger big = bigInteger(value, loc);
        if (big == null) {
            return null;
        }
        if (big.bitLength() > 31) {
            issue("int_parsing", loc, "Input should be a valid integer, unable to parse string as an integer", raw(value));
            return null;
        }
        return big.intValue();
    }

    public Boolean bool(JsonNode value, List<Object> loc) {
        if (value == null) {
            return null;
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        String text = value.isTextual() ? value.textValue().toLowerCase(Locale.ROOT)
                : value.isIntegralNumber() ? value.asText() : null;
        if (text != null && TRUE.contains(text)) {
            return true;
        }
        if (text != null && FALSE.contains(text)) {
            return false;
        }
        issue("bool_parsing", loc, "Input should be a valid boolean, unable to interpret input", raw(value));
        return null;
    }

    public String string(JsonNode value, List<Object> loc) {
        if (value == null) {
            return null;
        }
        if (value.isTextual()) {
            return value.textValue();
        }
        issue("string_type", loc, "Input should be a valid string", raw(value));
        return null;
    }

    public ObjectNode dict(JsonNode value, List<Object> loc) {
        if (value == null) {
            return null;
        }
        if (value.isObject()) {
            return (ObjectNode) value;
        }
        issue("dict_type", loc, "Input should be a valid dictionary", raw(value));
        return null;
    }

    /** A list whose elements each go through {@code element}; null elements mean the element was refused. */
    public <T> List<T> list(JsonNode value, List<Object> loc, ElementReader<T> element) {
        if (value == null) {
            return null;
        }
        if (!value.isArray()) {
            issue("list_type", loc, "Input should be a valid list", raw(value));
            return null;
        }
        List<T> out = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            T item = element.read(value.get(i), child(loc, i));
            if (item != null) {
                out.add(item);
            }
        }
        return out;
    }

    public <T> Map<String, T> map(JsonNode value, List<Object> loc, ElementReader<T> element) {
        ObjectNode object = dict(value, loc);
        if (object == null) {
            return null;
        }
        Map<String, T> out = new java.util.LinkedHashMap<>();
        object.fields().forEachRemaining(entry -> {
            T item = element.read(entry.getValue(), child(loc, entry.getKey()));
            if (item != null) {
                out.put(entry.getKey(), item);
            }
        });
        return out;
    }

    public void atLeast(Number value, long minimum, List<Object> loc) {
        if (value != null && value.doubleValue() < minimum) {
            issue("greater_than_equal", loc, "Input should be greater than or equal to " + minimum, value);
        }
    }

    public static Object raw(JsonNode value) {
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isNumber()) {
            return value.numberValue();
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        return value;
    }

    @FunctionalInterface
    public interface ElementReader<T> {
        T read(JsonNode value, List<Object> loc);
    }
}
