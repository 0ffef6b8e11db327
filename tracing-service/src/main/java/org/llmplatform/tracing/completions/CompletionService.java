package org.llmplatform.tracing.completions;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.support.ids.Uuids;
import org.llmplatform.tracing.calls.CallEndRow;
import org.llmplatform.tracing.calls.CallStartRow;
import org.llmplatform.tracing.calls.CallStore;

/**
 * {@code /completions/create} and {@code /completions/create_stream}: the chat completion runs on the
 * inference gateway under the caller's key and project; with {@code track_llm_call} it is recorded as
 * a {@code weave.completions_create} call (inputs, output, {@code summary.usage} by model, latency).
 * The call is started before the gateway is asked and named to it, so that the gateway's usage record of
 * the request finds it and is not recorded as a second call ({@code UsageCalls}); an untracked completion is
 * recorded from that usage record alone. Failures of the gateway are answered in-band, as the reference
 * answers LLM failures.
 */
@ApplicationScoped
public class CompletionService {

    public static final String OP_NAME = "weave.completions_create";

    /** Weave's completion inputs that steer the trace server's LLM client, never sent to the model. */
    private static final Set<String> NOT_FOR_THE_MODEL = Set.of("prompt", "template_vars", "extra_headers",
            "api_version", "timeout");

    private static final String PROMPT_UNSUPPORTED =
            "inputs.prompt (a stored prompt object) is not supported by this server: send the messages";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record CompletionsCreated(JsonNode response, String weaveCallId) {
    }

    /** A completion request as the endpoints take it; {@code apiKey} is the caller's own. */
    public record CompletionRequest(String projectId, ObjectNode inputs, Boolean trackLlmCall, String apiKey) {
    }

    /** A request checked and resolved: the project, the inputs as the call records them. */
    private record Accepted(String projectId, ObjectNode inputs, String model, boolean track, String authorization,
            String userName) {
    }

    private final InferenceGatewayClient gateway;
    private final CallStore calls;
    private final CurrentPrincipal caller;
    private final ObjectMapper json;

    public CompletionService(@RestClient InferenceGatewayClient gateway, CallStore calls, CurrentPrincipal caller,
            ObjectMapper json) {
        this.gateway = gateway;
        this.calls = calls;
        this.caller = caller;
        this.json = json;
    }

    public Uni<CompletionsCreated> create(CompletionRequest request) {
        Accepted accepted = accept(request);
        if (usesPrompt(accepted)) {
            return Uni.createFrom().item(new CompletionsCreated(error(PROMPT_UNSUPPORTED), null));
        }
        if (!accepted.track()) {
            return answer(accepted, null).map(response -> new CompletionsCreated(response, null));
        }
        String id = Uuids.v7().toString();
        return calls.start(startRow(accepted, id, now()))
                .chain(() -> answer(accepted, id))
                .chain(response -> {
                    String exception = response.hasNonNull("error") ? errorText(response.get("error")) : null;
                    return calls.end(endRow(accepted, id, response, response.path("usage"), exception))
                            .replaceWith(new CompletionsCreated(response, id));
                });
    }

    /** The gateway's completion, or its failure in-band; {@code callId} names the call that tracks it, if any. */
    private Uni<JsonNode> answer(Accepted accepted, String callId) {
        return gateway.create(accepted.authorization(), accepted.projectId(), callId, modelRequest(accepted, false))
                .onFailure().recoverWithItem(failure -> error(message(failure)));
    }

    /**
     * JSON Lines: the gateway's chunks as they come, after a {@code {"_meta":{"weave_call_id"}}} line
     * when tracked (the call starts before the first chunk and ends after the last one). A failure
     * becomes one {@code {"error": ...}} line. A tracked stream always asks for the usage chunk, so that
     * the call has the usage, and leaves it out of the lines when the caller turned it off.
     */
    public Multi<String> createStream(CompletionRequest request) {
        Accepted accepted = accept(request);
        if (usesPrompt(accepted)) {
            return Multi.createFrom().item(line(error(PROMPT_UNSUPPORTED)));
        }
        StreamedCompletion completion = new StreamedCompletion();
        String id = accepted.track() ? Uuids.v7().toString() : null;
        boolean hideUsage = accepted.track() && !callerAsksForUsage(accepted.inputs());
        Multi<String> chunks = Multi.createFrom().deferred(() -> gateway.stream(accepted.authorization(),
                        accepted.projectId(), id, modelRequest(accepted, true))
                .filter(data -> !data.isBlank() && !data.trim().equals("[DONE]"))
                .map(this::parse)
                .invoke(completion::add)
                .filter(chunk -> !hideUsage || !isUsageChunk(chunk))
                .map(CompletionService::line)
                .onFailure().recoverWithItem(failure -> {
                    completion.fail(message(failure));
                    return line(error(message(failure)));
                }));
        if (!accepted.track()) {
            return chunks;
        }
        ObjectNode meta = NODES.objectNode();
        meta.putObject("_meta").put("weave_call_id", id);
        Multi<String> started = calls.start(startRow(accepted, id, now())).replaceWith(line(meta)).toMulti();
        Multi<String> ended = Multi.createFrom().deferred(() -> calls.end(
                        endRow(accepted, id, completion.output(), completion.usage(), completion.error()))
                .onItem().transformToMulti(ignored -> Multi.createFrom().empty()));
        return Multi.createBy().concatenating().streams(started, chunks, ended);
    }

    private Accepted accept(CompletionRequest request) {
        if (request.projectId() == null) {
            throw ApiException.invalidField("missing", List.of("body", "project_id"), "Field required", null);
        }
        if (request.inputs() == null) {
            throw ApiException.invalidField("missing", List.of("body", "inputs"), "Field required", null);
        }
        String project = caller.requireProject(request.projectId()).toString();
        JsonNode model = request.inputs().get("model");
        if (model == null || model.isNull()) {
            throw ApiException.invalidField("missing", List.of("body", "inputs", "model"), "Field required", null);
        }
        if (!model.isTextual() || model.asText().isBlank()) {
            throw ApiException.invalidField("string_type", List.of("body", "inputs", "model"),
                    "Input should be a non-empty string", model);
        }
        JsonNode messages = request.inputs().get("messages");
        if (messages != null && !messages.isNull() && !messages.isArray()) {
            throw ApiException.invalidField("list_type", List.of("body", "inputs", "messages"),
                    "Input should be a valid list", messages);
        }
        ObjectNode inputs = NODES.objectNode();
        inputs.set("messages", NODES.arrayNode());
        request.inputs().fields().forEachRemaining(field -> {
            if (!field.getValue().isNull()) {
                inputs.set(field.getKey(), field.getValue());
            }
        });
        boolean track = request.trackLlmCall() == null || request.trackLlmCall();
        return new Accepted(project, inputs, model.asText(), track, "Bearer " + request.apiKey(),
                caller.get().userName());
    }

    private static boolean usesPrompt(Accepted accepted) {
        return accepted.inputs().has("prompt");
    }

    /** The OpenAI request: the inputs for the model; streamed with the usage chunk so a tracked call has it. */
    private static ObjectNode modelRequest(Accepted accepted, boolean stream) {
        ObjectNode request = accepted.inputs().deepCopy();
        request.remove(NOT_FOR_THE_MODEL);
        request.put("stream", stream);
        if (!stream) {
            request.remove("stream_options");
        } else if (!request.has("stream_options")) {
            request.putObject("stream_options").put("include_usage", true);
        } else if (accepted.track() && request.get("stream_options").isObject()) {
            ((ObjectNode) request.get("stream_options")).put("include_usage", true);
        }
        return request;
    }

    /** Whether the caller's stream options ask for the usage chunk: absent ones do, and so does an object without a false. */
    private static boolean callerAsksForUsage(ObjectNode inputs) {
        JsonNode options = inputs.get("stream_options");
        return options == null || !options.isObject() || options.path("include_usage").asBoolean(true);
    }

    /** The stream's last chunk of {@code include_usage}: no choices, the usage. */
    private static boolean isUsageChunk(JsonNode chunk) {
        return chunk.path("usage").isObject() && chunk.path("choices").isEmpty();
    }

    private CallStartRow startRow(Accepted accepted, String id, OffsetDateTime startedAt) {
        return CallStartRow.serverMade(accepted.projectId(), id, Uuids.v7().toString(), OP_NAME, startedAt, "{}",
                accepted.inputs().toString(), accepted.userName());
    }

    private static CallEndRow endRow(Accepted accepted, String id, JsonNode output, JsonNode usage, String exception) {
        ObjectNode summary = NODES.objectNode();
        if (usage != null && usage.isObject()) {
            // One request, as a usage call of the gateway counts it: the totals add requests up.
            summary.putObject("usage").set(accepted.model(), ((ObjectNode) usage.deepCopy()).put("requests", 1));
        }
        return new CallEndRow(accepted.projectId(), id, now(), exception, output.toString(), List.of(),
                summary.toString(), null);
    }

    private JsonNode parse(String data) {
        try {
            return json.readTree(data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("The inference gateway sent a chunk that is not JSON");
        }
    }

    private static String line(JsonNode value) {
        return value.toString();
    }

    private static ObjectNode error(String message) {
        return NODES.objectNode().put("error", message);
    }

    private static String errorText(JsonNode error) {
        return error.isTextual() ? error.asText() : error.path("message").asText(error.toString());
    }

    private static String message(Throwable failure) {
        if (failure instanceof GatewayError || failure instanceof IllegalStateException) {
            return failure.getMessage();
        }
        String cause = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return "The inference gateway request failed: " + cause;
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }
}
