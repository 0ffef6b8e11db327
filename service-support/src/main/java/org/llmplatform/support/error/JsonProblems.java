package org.llmplatform.support.error;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.llmplatform.model.errors.ValidationIssue;

/** Describes a body Jackson could not read as a pydantic-style issue that names the field. */
final class JsonProblems {

    static ValidationIssue describe(JsonProcessingException problem) {
        if (problem instanceof StreamReadException unreadable && !(problem instanceof MismatchedInputException)) {
            long offset = unreadable.getLocation() == null ? 0 : unreadable.getLocation().getCharOffset();
            return new ValidationIssue("json_invalid", List.of("body", offset),
                    "JSON decode error: " + unreadable.getOriginalMessage(), Map.of());
        }
        if (!(problem instanceof JsonMappingException mapping)) {
            return new ValidationIssue("json_invalid", List.of("body"), "JSON decode error: " + problem.getOriginalMessage(), Map.of());
        }
        List<Object> loc = location(mapping);
        if (mapping instanceof UnrecognizedPropertyException unknown) {
            // Jackson's own exceptions already end their path with the property; hand-made ones may not.
            if (!unknown.getPropertyName().equals(loc.get(loc.size() - 1))) {
                loc.add(unknown.getPropertyName());
            }
            return new ValidationIssue("extra_forbidden", loc, "Extra inputs are not permitted", null);
        }
        if (mapping instanceof ValueInstantiationException invalid) {
            Throwable cause = invalid.getCause() == null ? invalid : invalid.getCause();
            return new ValidationIssue("value_error", loc, "Value error, " + cause.getMessage(), null);
        }
        Object input = mapping instanceof InvalidFormatException format ? format.getValue() : null;
        Class<?> target = mapping instanceof MismatchedInputException mismatch ? mismatch.getTargetType() : null;
        return expected(target, loc, input);
    }

    private static List<Object> location(JsonMappingException mapping) {
        List<Object> loc = new ArrayList<>();
        loc.add("body");
        for (JsonMappingException.Reference reference : mapping.getPath()) {
            loc.add(reference.getFieldName() != null ? reference.getFieldName() : reference.getIndex());
        }
        return loc;
    }

    private static ValidationIssue expected(Class<?> target, List<Object> loc, Object input) {
        if (target == null) {
            return new ValidationIssue("type_error", loc, "Input has the wrong type", input);
        }
        if (target == Integer.class || target == int.class || target == Long.class || target == long.class
                || target == Short.class || target == short.class || target == BigInteger.class) {
            return new ValidationIssue("int_type", loc, "Input should be a valid integer", input);
        }
        if (target == Double.class || target == double.class || target == Float.class || target == float.class
                || target == BigDecimal.class) {
            return new ValidationIssue("float_type", loc, "Input should be a valid number", input);
        }
        if (target == Boolean.class || target == boolean.class) {
            return new ValidationIssue("bool_type", loc, "Input should be a valid boolean", input);
        }
        if (CharSequence.class.isAssignableFrom(target)) {
            return new ValidationIssue("string_type", loc, "Input should be a valid string", input);
        }
        if (target.isEnum()) {
            return new ValidationIssue("enum", loc, "Input should be one of " + Arrays.toString(target.getEnumConstants()), input);
        }
        if (target.isArray() || Collection.class.isAssignableFrom(target)) {
            return new ValidationIssue("list_type", loc, "Input should be a valid list", input);
        }
        return new ValidationIssue("dict_type", loc, "Input should be a valid dictionary or object", input);
    }

    private JsonProblems() {
    }
}
