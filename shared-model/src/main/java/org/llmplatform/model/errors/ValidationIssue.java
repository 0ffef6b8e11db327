package org.llmplatform.model.errors;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * One entry of a FastAPI/pydantic-style 422 body: {@code {"type","loc","msg","input"}}, where
 * {@code loc} names the field, starting with {@code "body"} for the request body.
 */
@RegisterForReflection
public record ValidationIssue(String type, List<Object> loc, String msg, Object input) {
}
