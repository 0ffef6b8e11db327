package org.llmplatform.training.runs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestPath;
import org.llmplatform.support.error.ApiException;

/**
 * The native training API under ART's training base URL, as {@code art.serverless.client.TrainingRuns} calls it:
 * {@code runs:resolve}, a run, {@code {run}:close}, one route per command, an operation and {@code {operation}:cancel}.
 * Google-style {@code :verb} suffixes are read from the path segment they end.
 */
@Path("/v1/training")
@Produces(MediaType.APPLICATION_JSON)
public class NativeRunResource {

    private final NativeRunService runs;
    private final ObjectMapper json;

    public NativeRunResource(NativeRunService runs, ObjectMapper json) {
        this.runs = runs;
        this.json = json;
    }

    /** {@code POST runs:resolve}: the segment is matched whole, as a literal with a colon is not matched as one. */
    @POST
    @Path("{runs_verb}")
    public Uni<RunResponse> resolve(@RestPath("runs_verb") String runsVerb, String body) {
        if (!"runs:resolve".equals(runsVerb)) {
            throw ApiException.notFound("No route POST /v1/training/" + runsVerb);
        }
        return runs.resolve(parse(body)).map(this::response);
    }

    @GET
    @Path("runs/{run_id}")
    public Uni<RunResponse> get(@RestPath("run_id") String runId) {
        return runs.find(runId).map(this::response);
    }

    /** {@code POST runs/{run_id}:close} (the body's {@code request_id}, when sent, is not needed: closing is idempotent). */
    @POST
    @Path("runs/{run_action}")
    public Uni<RunResponse> close(@RestPath("run_action") String runAction) {
        return runs.close(verb(runAction, "close")).map(this::response);
    }

    @POST
    @Path("runs/{run_id}/{kind}")
    public Uni<OperationResponse> submit(@RestPath("run_id") String runId, @RestPath("kind") String kind, String body) {
        return runs.submit(runId, kind, () -> parse(body)).map(this::response);
    }

    @GET
    @Path("runs/{run_id}/operations/{operation_id}")
    public Uni<OperationResponse> operation(@RestPath("run_id") String runId, @RestPath("operation_id") String operationId) {
        return runs.operation(runId, operationId).map(this::response);
    }

    @POST
    @Path("runs/{run_id}/operations/{operation_action}")
    public Uni<OperationResponse> cancel(@RestPath("run_id") String runId, @RestPath("operation_action") String operationAction) {
        return runs.cancel(runId, verb(operationAction, "cancel")).map(this::response);
    }

    private static String verb(String segment, String verb) {
        String suffix = ":" + verb;
        if (!segment.endsWith(suffix) || segment.length() == suffix.length()) {
            throw ApiException.notFound("No route POST ..." + segment + ": expected {id}" + suffix);
        }
        return segment.substring(0, segment.length() - suffix.length());
    }

    private JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            throw ApiException.invalidField("missing", java.util.List.of("body"), "Field required", null);
        }
        try {
            return json.readTree(body);
        } catch (JsonProcessingException e) {
            throw ApiException.invalidField("json_invalid", java.util.List.of("body", e.getLocation() == null ? 0 : e.getLocation().getCharOffset()),
                    "JSON decode error", null);
        }
    }

    private RunResponse response(NativeRun run) {
        return new RunResponse(run.runId(), run.runName(), tree(run.spec()), run.status(), run.nextSequenceId(), run.projectedLearnerVersion(),
                run.committedLearnerVersion());
    }

    private OperationResponse response(NativeOperation operation) {
        return new OperationResponse(operation.operationId(), operation.runId(), operation.requestId(), operation.sequenceId(), operation.kind(),
                operation.status(), operation.learnerParentVersion(), operation.reservedOutputLearnerVersion(), operation.admittedAt(),
                operation.startedAt(), operation.endedAt(), operation.cancelRequested(), operation.eventCursor(),
                operation.result() == null ? null : tree(operation.result()), null,
                operation.errorCode() == null ? null : new OperationResponse.OperationError(operation.errorCode()));
    }

    private JsonNode tree(String text) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is not readable", e);
        }
    }
}
