package org.llmplatform.model.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/**
 * One chat completion request the gateway finished or refused, published on {@code inference.usage}, keyed by
 * project. {@code weaveCallId}, optional, is the call the caller said it tracks the request as (header
 * {@value #WEAVE_CALL_HEADER}): the tracing service's {@code /completions} record the completion themselves.
 *
 * <p>The fields after it are optional too (records published before them lack them, and are read as before):
 * {@code responseId} is the {@code id} of the chat completion the client got (what a client-side tracer such as
 * the Weave SDKs records in its call's output), {@code request} the request as the gateway read it, {@code response}
 * the answer as a {@code chat.completion} (a stream's chunks accumulated), each the {@link #exceedsLimits()} placeholder
 * past {@value #MAX_PAYLOAD_CHARS} characters so that a record stays well within Kafka's message size, and
 * {@code error} what the client was told when the request failed or was refused.
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record UsageRecord(
        int schemaVersion,
        String requestId,
        String projectId,
        String userId,
        String model,
        long promptTokens,
        long completionTokens,
        long latencyMs,
        String status,
        Instant startedAt,
        Instant endedAt,
        String weaveCallId,
        String responseId,
        JsonNode request,
        JsonNode response,
        String error) {

    public static final int SCHEMA_VERSION = 1;

    /** The request header naming the call that tracks a chat completion, copied into {@code weaveCallId}. */
    public static final String WEAVE_CALL_HEADER = "X-Weave-Call-Id";

    public static final String SUCCESS = "success";
    public static final String ERROR = "error";
    public static final String CANCELLED = "cancelled";
    /** The gateway answered the request with an error before any model ran it (a 4xx: invalid, unknown model, a limit). */
    public static final String REFUSED = "refused";

    /**
     * The most characters of JSON {@code request} and {@code response} carry each: at most 3 bytes a character in
     * UTF-8, both together stay under the 1 MiB a Kafka broker takes in one message by default.
     */
    public static final int MAX_PAYLOAD_CHARS = 131_072;

    /** A JSON {@code null} request or response is none, as a missing one is. */
    public UsageRecord {
        request = request == null || request.isNull() ? null : request;
        response = response == null || response.isNull() ? null : response;
    }

    /** A record of a request no call tracks. */
    public UsageRecord(int schemaVersion, String requestId, String projectId, String userId, String model, long promptTokens,
            long completionTokens, long latencyMs, String status, Instant startedAt, Instant endedAt) {
        this(schemaVersion, requestId, projectId, userId, model, promptTokens, completionTokens, latencyMs, status, startedAt,
                endedAt, null);
    }

    /** A record without the completion's id, request and answer. */
    public UsageRecord(int schemaVersion, String requestId, String projectId, String userId, String model, long promptTokens,
            long completionTokens, long latencyMs, String status, Instant startedAt, Instant endedAt, String weaveCallId) {
        this(schemaVersion, requestId, projectId, userId, model, promptTokens, completionTokens, latencyMs, status, startedAt,
                endedAt, weaveCallId, null, null, null, null);
    }

    /**
     * The API a request came through, named by the prefix of its request id as OpenAI's ids name theirs; an id
     * without one of these prefixes (records from before the other APIs) is a chat completion's.
     */
    public enum Api {
        CHAT_COMPLETIONS("chatcmpl-", "chat.completions"),
        COMPLETIONS("cmpl-", "completions"),
        EMBEDDINGS("embd-", "embeddings"),
        RESPONSES("resp-", "responses");

        private final String idPrefix;
        private final String path;

        Api(String idPrefix, String path) {
            this.idPrefix = idPrefix;
            this.path = path;
        }

        /** What the gateway puts before a request id of this API. */
        public String idPrefix() {
            return idPrefix;
        }

        /** The API's path under {@code /v1/}. */
        public String path() {
            return path;
        }

        public static Api of(String requestId) {
            for (Api api : values()) {
                if (requestId != null && requestId.startsWith(api.idPrefix)) {
                    return api;
                }
            }
            return CHAT_COMPLETIONS;
        }
    }

    public Api api() {
        return Api.of(requestId);
    }

    public long totalTokens() {
        return promptTokens + completionTokens;
    }

    /** {@code payload} as it is when its JSON is within {@value #MAX_PAYLOAD_CHARS} characters, else the placeholder. */
    public static JsonNode withinLimit(JsonNode payload) {
        if (payload == null || payload.isNull()) {
            return null;
        }
        return payload.toString().length() <= MAX_PAYLOAD_CHARS ? payload : exceedsLimits();
    }

    /**
     * {@code json}, the text of one JSON value the caller already wrote or checked, carried into the record as it is
     * when within {@value #MAX_PAYLOAD_CHARS} characters, else the placeholder: a payload the gateway holds as text is
     * neither parsed nor written again.
     */
    public static JsonNode withinLimitAsWritten(String json) {
        if (json == null) {
            return null;
        }
        return json.length() <= MAX_PAYLOAD_CHARS ? JsonNodeFactory.instance.rawValueNode(new RawValue(json))
                : exceedsLimits();
    }

    /** What stands for a request or response past the limit, as the tracing service writes a column past its own. */
    public static JsonNode exceedsLimits() {
        ObjectNode placeholder = JsonNodeFactory.instance.objectNode();
        placeholder.putObject("_weave").put("error", "<EXCEEDS_LIMITS>");
        return placeholder;
    }
}
