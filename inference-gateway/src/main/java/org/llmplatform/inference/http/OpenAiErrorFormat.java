package org.llmplatform.inference.http;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.stream.Collectors;
import org.llmplatform.model.errors.OpenAiError;
import org.llmplatform.model.errors.ValidationIssue;
import org.llmplatform.support.error.ErrorFormat;

/**
 * The OpenAI error envelope {@code {"error":{"message","type","param","code"}}}, which both official
 * SDKs parse. Schema errors stay FastAPI's 422 {@code {"detail":[…]}} with the same error object
 * beside it, because the openai npm SDK shows a 422 without one as "(no body)".
 */
@Singleton
public class OpenAiErrorFormat implements ErrorFormat {

    /** {@code {"error": {...}}}. */
    @RegisterForReflection
    public record ErrorBody(OpenAiError error) {
    }

    /** {@code {"detail": [issues], "error": {...}}}. */
    @RegisterForReflection
    public record ValidationBody(List<ValidationIssue> detail, OpenAiError error) {
    }

    /** The body of an {@link OpenAiException}: its own type, code and param (its headers go beside it). */
    public static ErrorBody errorBody(OpenAiException error) {
        return new ErrorBody(new OpenAiError(error.getMessage(), error.type(), error.param(), error.code()));
    }

    @Override
    public Object errorBody(int status, String message) {
        return new ErrorBody(new OpenAiError(message, typeFor(status), null, codeFor(status)));
    }

    @Override
    public Object validationBody(List<ValidationIssue> issues) {
        ValidationIssue first = issues.get(0);
        String message = issues.stream()
                .map(issue -> dotted(issue.loc()) + ": " + issue.msg())
                .collect(Collectors.joining("; "));
        return new ValidationBody(issues, new OpenAiError(message, "invalid_request_error", param(first), first.type()));
    }

    /** OpenAI's wording for a path it does not serve. */
    @Override
    public Object unknownRouteBody(String method, String path) {
        return new ErrorBody(new OpenAiError("Invalid URL (" + method + " " + path + ")", typeFor(404), null, codeFor(404)));
    }

    static String typeFor(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 402 -> "insufficient_quota";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 429 -> "rate_limit_error";
            default -> status >= 500 ? "server_error" : "invalid_request_error";
        };
    }

    /** Machine-readable codes are strings, as OpenAI sends them; openai-java refuses numbers. */
    static String codeFor(int status) {
        return switch (status) {
            case 401 -> "invalid_api_key";
            case 402 -> "insufficient_quota";
            case 429 -> "rate_limit_exceeded";
            default -> null;
        };
    }

    /** The field a 422 is about, without its "body"/"query"/"path" prefix; none for unparseable JSON. */
    private static String param(ValidationIssue issue) {
        if ("json_invalid".equals(issue.type()) || issue.loc().size() < 2) {
            return null;
        }
        return dotted(issue.loc().subList(1, issue.loc().size()));
    }

    private static String dotted(List<Object> loc) {
        return loc.stream().map(String::valueOf).collect(Collectors.joining("."));
    }
}
