package org.llmplatform.tracing.evals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.jboss.resteasy.reactive.RestMulti;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.calls.CallFilter;
import org.llmplatform.tracing.evals.EvalEnvelopes.Deleted;
import org.llmplatform.tracing.evals.EvalEnvelopes.EvalResultsQueryBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.EvaluationRunCreateBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.EvaluationRunCreated;
import org.llmplatform.tracing.evals.EvalEnvelopes.EvaluationRunFinishBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.EvaluationRunRead;
import org.llmplatform.tracing.evals.EvalEnvelopes.Finished;
import org.llmplatform.tracing.evals.EvalEnvelopes.GenAiSpanRef;
import org.llmplatform.tracing.evals.EvalEnvelopes.PredictionCreateBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.PredictionCreated;
import org.llmplatform.tracing.evals.EvalEnvelopes.PredictionRead;
import org.llmplatform.tracing.evals.EvalEnvelopes.ScoreCreateBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.ScoreCreated;
import org.llmplatform.tracing.evals.EvalEnvelopes.ScoreRead;
import org.llmplatform.tracing.http.JsonLinesBody;

/** {@code /v2/{entity}/{project}/} evaluation_runs, predictions and scores, written and read as calls, and eval_results/query. */
@Path("/v2/{entity}/{project}")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
@BodyChecks(entityParameters = "entity")
public class EvalRunResource {

    private final EvalRunService runs;
    private final EvalResultsService results;
    private final ObjectMapper json;

    public EvalRunResource(EvalRunService runs, EvalResultsService results, ObjectMapper json) {
        this.runs = runs;
        this.results = results;
        this.json = json;
    }

    // ---- evaluation runs

    @POST
    @Path("evaluation_runs")
    @BodyChecks(entityParameters = "entity", refs = {"evaluation", "model"}, limits = {
            @Limit(field = "evaluation", max = FieldLimits.REF), @Limit(field = "model", max = FieldLimits.REF),
            @Limit(field = "source_evaluation_run_id", max = FieldLimits.ID)})
    public Uni<EvaluationRunCreated> createRun(@PathParam("entity") String entity, @PathParam("project") String project,
            EvaluationRunCreateBody body) {
        String projectId = EvalPaths.project(entity, project);
        EvalPaths.requirePresent(body == null ? null : body.evaluation(), "evaluation");
        EvalPaths.requirePresent(body.model(), "model");
        return runs.createRun(projectId, body.evaluation(), body.model(), body.sourceEvaluationRunId())
                .map(EvaluationRunCreated::new);
    }

    @GET
    @Path("evaluation_runs")
    public RestMulti<Buffer> listRuns(@PathParam("entity") String entity, @PathParam("project") String project,
            @QueryParam("evaluations") List<String> evaluations, @QueryParam("models") List<String> models,
            @QueryParam("evaluation_run_ids") List<String> runIds, @QueryParam("limit") Long limit,
            @QueryParam("offset") Long offset, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        String projectId = EvalPaths.project(entity, project);
        return lines(runs.listRuns(projectId, EvalPaths.ids(evaluations, "evaluations", FieldLimits.REF),
                EvalPaths.ids(models, "models", FieldLimits.REF), EvalPaths.ids(runIds, "evaluation_run_ids", FieldLimits.ID),
                limit, offset), accept);
    }

    @DELETE
    @Path("evaluation_runs")
    public Uni<Deleted> deleteRuns(@PathParam("entity") String entity, @PathParam("project") String project,
            @QueryParam("evaluation_run_ids") List<String> runIds) {
        return delete(entity, project, runIds, "evaluation_run_ids");
    }

    @GET
    @Path("evaluation_runs/{evaluation_run_id}")
    public Uni<EvaluationRunRead> readRun(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("evaluation_run_id") String runId) {
        String projectId = EvalPaths.project(entity, project);
        return runs.readRun(projectId, EvalPaths.id(runId, "evaluation_run_id"));
    }

    @POST
    @Path("evaluation_runs/{evaluation_run_id}/finish")
    public Uni<Finished> finishRun(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("evaluation_run_id") String runId, EvaluationRunFinishBody body) {
        String projectId = EvalPaths.project(entity, project);
        return runs.finishRun(projectId, EvalPaths.id(runId, "evaluation_run_id"), body == null ? null : body.summary())
                .replaceWith(new Finished(true));
    }

    // ---- predictions

    @POST
    @Path("predictions")
    @BodyChecks(entityParameters = "entity", refs = "model", limits = {
            @Limit(field = "model", max = FieldLimits.REF), @Limit(field = "evaluation_run_id", max = FieldLimits.ID),
            @Limit(field = "genai_span_ref[].trace_id", max = FieldLimits.ID),
            @Limit(field = "genai_span_ref[].span_id", max = FieldLimits.ID)})
    public Uni<PredictionCreated> createPrediction(@PathParam("entity") String entity, @PathParam("project") String project,
            PredictionCreateBody body) {
        String projectId = EvalPaths.project(entity, project);
        EvalPaths.requirePresent(body == null ? null : body.model(), "model");
        EvalPaths.requirePresent(body.inputs(), "inputs");
        requireSpanIds(body.genaiSpanRef());
        return runs.createPrediction(projectId, body).map(PredictionCreated::new);
    }

    @GET
    @Path("predictions")
    public RestMulti<Buffer> listPredictions(@PathParam("entity") String entity, @PathParam("project") String project,
            @QueryParam("evaluation_run_id") String runId, @QueryParam("limit") Long limit, @QueryParam("offset") Long offset,
            @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        String projectId = EvalPaths.project(entity, project);
        FieldLimits.check(runId, FieldLimits.ID, "query", "evaluation_run_id");
        return lines(runs.listPredictions(projectId, runId, limit, offset), accept);
    }

    @DELETE
    @Path("predictions")
    public Uni<Deleted> deletePredictions(@PathParam("entity") String entity, @PathParam("project") String project,
            @QueryParam("prediction_ids") List<String> ids) {
        return delete(entity, project, ids, "prediction_ids");
    }

    @GET
    @Path("predictions/{prediction_id}")
    public Uni<PredictionRead> readPrediction(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("prediction_id") String predictionId) {
        String projectId = EvalPaths.project(entity, project);
        return runs.readPrediction(projectId, EvalPaths.id(predictionId, "prediction_id"));
    }

    @POST
    @Path("predictions/{prediction_id}/finish")
    public Uni<Finished> finishPrediction(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("prediction_id") String predictionId) {
        String projectId = EvalPaths.project(entity, project);
        return runs.finishPrediction(projectId, EvalPaths.id(predictionId, "prediction_id")).replaceWith(new Finished(true));
    }

    // ---- scores

    @POST
    @Path("scores")
    @BodyChecks(entityParameters = "entity", refs = "scorer", limits = {
            @Limit(field = "prediction_id", max = FieldLimits.ID), @Limit(field = "scorer", max = FieldLimits.REF),
            @Limit(field = "evaluation_run_id", max = FieldLimits.ID)})
    public Uni<ScoreCreated> createScore(@PathParam("entity") String entity, @PathParam("project") String project,
            ScoreCreateBody body) {
        String projectId = EvalPaths.project(entity, project);
        EvalPaths.requirePresent(body == null ? null : body.predictionId(), "prediction_id");
        EvalPaths.requirePresent(body.scorer(), "scorer");
        EvalPaths.requirePresent(body.value(), "value");
        return runs.createScore(projectId, body).map(ScoreCreated::new);
    }

    @GET
    @Path("scores")
    public RestMulti<Buffer> listScores(@PathParam("entity") String entity, @PathParam("project") String project,
            @QueryParam("evaluation_run_id") String runId, @QueryParam("limit") Long limit, @QueryParam("offset") Long offset,
            @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        String projectId = EvalPaths.project(entity, project);
        FieldLimits.check(runId, FieldLimits.ID, "query", "evaluation_run_id");
        return lines(runs.listScores(projectId, runId, limit, offset), accept);
    }

    @DELETE
    @Path("scores")
    public Uni<Deleted> deleteScores(@PathParam("entity") String entity, @PathParam("project") String project,
            @QueryParam("score_ids") List<String> ids) {
        return delete(entity, project, ids, "score_ids");
    }

    @GET
    @Path("scores/{score_id}")
    public Uni<ScoreRead> readScore(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("score_id") String scoreId) {
        String projectId = EvalPaths.project(entity, project);
        return runs.readScore(projectId, EvalPaths.id(scoreId, "score_id"));
    }

    // ---- results

    @POST
    @Path("eval_results/query")
    @BodyChecks(entityParameters = "entity", limits = {
            @Limit(field = "evaluation_call_ids[]", max = FieldLimits.ID),
            @Limit(field = "evaluation_run_ids[]", max = FieldLimits.ID),
            @Limit(field = "sort_by[].evaluation_call_id", max = FieldLimits.ID),
            @Limit(field = "filters[].evaluation_call_id", max = FieldLimits.ID)})
    public Uni<ObjectNode> queryResults(@PathParam("entity") String entity, @PathParam("project") String project,
            EvalResultsQueryBody body) {
        String projectId = EvalPaths.project(entity, project);
        EvalResultsQueryBody request = body == null ? EvalResultsQueryBody.empty() : body;
        CallFilter.checkLength("evaluation_call_ids", request.evaluationCallIds());
        CallFilter.checkLength("evaluation_run_ids", request.evaluationRunIds());
        return results.query(projectId, EvalResultsRequest.of(request));
    }

    private static void requireSpanIds(List<GenAiSpanRef> refs) {
        for (int i = 0; refs != null && i < refs.size(); i++) {
            GenAiSpanRef ref = refs.get(i);
            String missing = ref == null || ref.traceId() == null ? "trace_id" : ref.spanId() == null ? "span_id" : null;
            if (missing != null) {
                throw ApiException.invalidField("missing", List.of("body", "genai_span_ref", i, missing), "Field required", null);
            }
        }
    }

    private Uni<Deleted> delete(String entity, String project, List<String> ids, String parameter) {
        String projectId = EvalPaths.project(entity, project);
        EvalPaths.requirePresentQuery(ids, parameter);
        return runs.delete(projectId, EvalPaths.ids(ids, parameter, FieldLimits.ID)).map(Deleted::new);
    }

    private RestMulti<Buffer> lines(Multi<?> values, String accept) {
        return JsonLinesBody.response(values, json, accept);
    }
}
