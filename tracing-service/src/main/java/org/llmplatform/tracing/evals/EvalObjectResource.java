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
import org.llmplatform.tracing.evals.EvalEnvelopes.DatasetCreateBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.Deleted;
import org.llmplatform.tracing.evals.EvalEnvelopes.EvaluationCreateBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.ModelCreateBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.OpCreateBody;
import org.llmplatform.tracing.evals.EvalEnvelopes.Published;
import org.llmplatform.tracing.evals.EvalEnvelopes.ScorerCreateBody;
import org.llmplatform.tracing.evals.EvalObjectService.Kind;
import org.llmplatform.tracing.http.JsonLinesBody;

/** {@code /v2/{entity}/{project}/} ops, datasets, scorers, evaluations and models: create, read, list (JSON Lines), delete. */
@Path("/v2/{entity}/{project}")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
@BodyChecks(entityParameters = "entity")
public class EvalObjectResource {

    private final EvalObjectService objects;
    private final ObjectMapper json;

    public EvalObjectResource(EvalObjectService objects, ObjectMapper json) {
        this.objects = objects;
        this.json = json;
    }

    // ---- ops

    @POST
    @Path("ops")
    @BodyChecks(entityParameters = "entity", limits = @Limit(field = "name", max = FieldLimits.NAME))
    public Uni<Published> createOp(@PathParam("entity") String entity, @PathParam("project") String project, OpCreateBody body) {
        String projectId = EvalPaths.project(entity, project);
        OpCreateBody request = body == null ? new OpCreateBody(null, null) : body;
        return objects.createOp(projectId, request.name(), request.sourceCode());
    }

    @GET
    @Path("ops")
    public RestMulti<Buffer> listOps(@PathParam("entity") String entity, @PathParam("project") String project,
            @QueryParam("limit") Long limit, @QueryParam("offset") Long offset, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return lines(objects.listOps(EvalPaths.project(entity, project), limit, offset), accept);
    }

    @GET
    @Path("ops/{object_id}/versions/{digest}")
    public Uni<ObjectNode> readOp(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("object_id") String objectId, @PathParam("digest") String digest,
            @QueryParam("eager") String eager) {
        String projectId = EvalPaths.project(entity, project);
        // The reference's route takes eager (default false) and its op read loads the code either way.
        EvalPaths.flag(eager, "eager", false);
        return objects.readOp(projectId, EvalPaths.objectVersion(objectId, digest), digest);
    }

    @DELETE
    @Path("ops/{object_id}")
    public Uni<Deleted> deleteOp(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("object_id") String objectId, @QueryParam("digests") List<String> digests) {
        String projectId = EvalPaths.project(entity, project);
        EvalPaths.objectVersion(objectId, null);
        return objects.deleteOp(projectId, objectId, named(digests)).map(Deleted::new);
    }

    // ---- datasets

    @POST
    @Path("datasets")
    @BodyChecks(entityParameters = "entity", limits = @Limit(field = "name", max = FieldLimits.NAME))
    public Uni<Published> createDataset(@PathParam("entity") String entity, @PathParam("project") String project,
            DatasetCreateBody body) {
        String projectId = EvalPaths.project(entity, project);
        EvalPaths.requirePresent(body == null ? null : body.rows(), "rows");
        return objects.createDataset(projectId, body);
    }

    @GET
    @Path("datasets")
    public RestMulti<Buffer> listDatasets(@PathParam("entity") String entity, @PathParam("project") String project,
            @QueryParam("limit") Long limit, @QueryParam("offset") Long offset, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return lines(objects.list(EvalPaths.project(entity, project), Kind.DATASET, limit, offset).map(objects::datasetAnswer),
                accept);
    }

    @GET
    @Path("datasets/{object_id}/versions/{digest}")
    public Uni<ObjectNode> readDataset(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("object_id") String objectId, @PathParam("digest") String digest) {
        return read(entity, project, objectId, digest).map(objects::datasetAnswer);
    }

    @DELETE
    @Path("datasets/{object_id}")
    public Uni<Deleted> deleteDataset(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("object_id") String objectId, @QueryParam("digests") List<String> digests) {
        return delete(entity, project, objectId, digests);
    }

    // ---- scorers

    @POST
    @Path("scorers")
    @BodyChecks(entityParameters = "entity", limits = @Limit(field = "name", max = FieldLimits.NAME))
    public Uni<ObjectNode> createScorer(@PathParam("entity") String entity, @PathParam("project") String project,
            ScorerCreateBody body) {
        String projectId = EvalPaths.project(entity, project);
        EvalPaths.requirePresent(body == null ? null : body.name(), "name");
        EvalPaths.requirePresent(body.opSourceCode(), "op_source_code");
        return objects.createScorer(projectId, body);
    }

    @GET
    @Path("scorers")
    public RestMulti<Buffer> listScorers(@PathParam("entity") String entity, @PathParam("project") String project,
            @QueryParam("limit") Long limit, @QueryParam("offset") Long offset, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return lines(objects.list(EvalPaths.project(entity, project), Kind.SCORER, limit, offset).map(objects::scorerAnswer),
                accept);
    }

    @GET
    @Path("scorers/{object_id}/versions/{digest}")
    public Uni<ObjectNode> readScorer(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("object_id") String objectId, @PathParam("digest") String digest) {
        return read(entity, project, objectId, digest).map(objects::scorerAnswer);
    }

    @DELETE
    @Path("scorers/{object_id}")
    public Uni<Deleted> deleteScorer(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("object_id") String objectId, @QueryParam("digests") List<String> digests) {
        return delete(entity, project, objectId, digests);
    }

    // ---- evaluations

    @POST
    @Path("evaluations")
    @BodyChecks(entityParameters = "entity", refs = {"dataset", "scorers[]"}, limits = {
            @Limit(field = "name", max = FieldLimits.NAME), @Limit(field = "dataset", max = FieldLimits.REF),
            @Limit(field = "scorers[]", max = FieldLimits.REF)})
    public Uni<ObjectNode> createEvaluation(@PathParam("entity") String entity, @PathParam("project") String project,
            EvaluationCreateBody body) {
        String projectId = EvalPaths.project(entity, project);
        EvalPaths.requirePresent(body == null ? null : body.name(), "name");
        EvalPaths.requirePresent(body.dataset(), "dataset");
        return objects.createEvaluation(projectId, body);
    }

    @GET
    @Path("evaluations")
    public RestMulti<Buffer> listEvaluations(@PathParam("entity") String entity, @PathParam("project") String project,
            @QueryParam("limit") Long limit, @QueryParam("offset") Long offset, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return lines(objects.list(EvalPaths.project(entity, project), Kind.EVALUATION, limit, offset)
                .map(objects::evaluationAnswer), accept);
    }

    @GET
    @Path("evaluations/{object_id}/versions/{digest}")
    public Uni<ObjectNode> readEvaluation(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("object_id") String objectId, @PathParam("digest") String digest) {
        return read(entity, project, objectId, digest).map(objects::evaluationAnswer);
    }

    @DELETE
    @Path("evaluations/{object_id}")
    public Uni<Deleted> deleteEvaluation(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("object_id") String objectId, @QueryParam("digests") List<String> digests) {
        return delete(entity, project, objectId, digests);
    }

    // ---- models

    @POST
    @Path("models")
    @BodyChecks(entityParameters = "entity", limits = @Limit(field = "name", max = FieldLimits.NAME))
    public Uni<ObjectNode> createModel(@PathParam("entity") String entity, @PathParam("project") String project,
            ModelCreateBody body) {
        String projectId = EvalPaths.project(entity, project);
        EvalPaths.requirePresent(body == null ? null : body.name(), "name");
        EvalPaths.requirePresent(body.sourceCode(), "source_code");
        return objects.createModel(projectId, body);
    }

    @GET
    @Path("models")
    public RestMulti<Buffer> listModels(@PathParam("entity") String entity, @PathParam("project") String project,
            @QueryParam("limit") Long limit, @QueryParam("offset") Long offset, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        String projectId = EvalPaths.project(entity, project);
        return lines(objects.list(projectId, Kind.MODEL, limit, offset)
                .onItem().transformToUniAndConcatenate(obj -> objects.modelAnswer(projectId, obj)), accept);
    }

    @GET
    @Path("models/{object_id}/versions/{digest}")
    public Uni<ObjectNode> readModel(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("object_id") String objectId, @PathParam("digest") String digest) {
        String projectId = EvalPaths.project(entity, project);
        return read(entity, project, objectId, digest).chain(obj -> objects.modelAnswer(projectId, obj));
    }

    @DELETE
    @Path("models/{object_id}")
    public Uni<Deleted> deleteModel(@PathParam("entity") String entity, @PathParam("project") String project,
            @PathParam("object_id") String objectId, @QueryParam("digests") List<String> digests) {
        return delete(entity, project, objectId, digests);
    }

    private Uni<ObjectNode> read(String entity, String project, String objectId, String digest) {
        String projectId = EvalPaths.project(entity, project);
        return objects.read(projectId, EvalPaths.objectVersion(objectId, digest), digest);
    }

    private Uni<Deleted> delete(String entity, String project, String objectId, List<String> digests) {
        String projectId = EvalPaths.project(entity, project);
        EvalPaths.objectVersion(objectId, null);
        return objects.delete(projectId, objectId, named(digests)).map(Deleted::new);
    }

    /** The versions a delete names; none named deletes every live version. */
    private static List<String> named(List<String> digests) {
        return digests == null || digests.isEmpty() ? null : EvalPaths.ids(digests, "digests", FieldLimits.DIGEST);
    }

    private RestMulti<Buffer> lines(Multi<?> values, String accept) {
        return JsonLinesBody.response(values, json, accept);
    }
}
