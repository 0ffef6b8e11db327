package org.llmplatform.model.errors;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The OpenAI error object, {@code {"message","type","param","code"}}; {@code code} is a string or
 * null, never a number (openai-java refuses numbers).
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.ALWAYS)
public record OpenAiError(String message, String type, String param, String code) {
}
