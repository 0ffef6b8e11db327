package org.llmplatform.training.rest;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.llmplatform.support.body.BodyChecks.Limit;
import org.llmplatform.support.body.FieldLimits;
import org.llmplatform.support.body.BodyChecks;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.support.rest.Parameters;
import org.llmplatform.support.rest.Parameters.In;
import org.llmplatform.training.service.CheckpointDeletion;
import org.llmplatform.training.service.CheckpointService;
import org.llmplatform.training.service.DeleteCheckpoints;
import org.llmplatform.training.service.JobService;
import org.llmplatform.training.service.LogRequest;
import org.llmplatform.training.service.LoggedMetrics;
import org.llmplatform.training.service.ModelCreate;
import org.llmplatform.training.service.ModelDeletion;
import org.llmplatform.training.service.ModelService;

/** The model registry of the training-preview API, as ART's {@code ServerlessBackend} calls it. */
@Path("/v1/preview")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class ModelResource {

    private final ModelService models;
    private final CheckpointService checkpoints;
    private final JobService jobs;

    public ModelResource(ModelService models, CheckpointService checkpoints, JobService jobs) {
        this.models = models;
        this.checkpoints = checkpoints;
        this.jobs = jobs;
    }

    @GET
    @Path("base-models")
    public List<String> baseModels() {
        return models.baseModels();
    }

    @POST
    @Path("models")
    @BodyChecks(entities = "entity", limits = {@Limit(field = "entity", max = FieldLimits.NAME),
            @Limit(field = "project", max = FieldLimits.NAME), @Limit(field = "name", max = FieldLimits.NAME)})
    public Uni<ModelResponse> createModel(ModelCreate request) {
        return models.register(request).map(ModelResponse::of);
    }

    /**
     * Not W&B's (a pre-release ART client had it): the models of a project, in the order they were registered, with
     * their latest step; {@code entity} defaults to the caller's own.
     */
    @GET
    @Path("models")
    @BodyChecks(entityParameters = "entity")
    public Uni<ListPage<ModelSummaryResponse>> listModels(@RestQuery String entity, @RestQuery String project,
            @RestQuery String after, @RestQuery String limit, @RestQuery String order) {
        return models.listInProject(entity == null || entity.isEmpty() ? null : entity, project, PageQuery.parse(after, limit, order))
                .map(page -> ListPage.of(page.data().stream().map(ModelSummaryResponse::of).toList(), ModelSummaryResponse::id,
                        page.hasMore()));
    }

    /** Not W&B's: the model's training jobs (the model looked up before the query is validated), oldest first (newest first with {@code order=desc}). */
    @GET
    @Path("models/{model_id}/training-jobs")
    public Uni<ListPage<JobResponse>> listJobs(@RestPath("model_id") String modelId, @RestQuery String after, @RestQuery String limit,
            @RestQuery String order) {
        return models.findAccessible(modelId).chain(() -> jobs.listForModel(modelId, PageQuery.parse(after, limit, order)))
                .map(page -> ListPage.of(page.data().stream().map(JobResponse::of).toList(), JobResponse::id, page.hasMore()));
    }

    /** Path ids are plain strings in W&B's schema: an id that is not a UUID is an unknown model (404), not a 422. */
    @GET
    @Path("models/{model_id}/checkpoints")
    public Uni<ListPage<CheckpointResponse>> listCheckpoints(@RestPath("model_id") String modelId,
            @RestQuery String after, @RestQuery String limit, @RestQuery String order) {
        return models.findAccessible(modelId).chain(() -> checkpoints.list(modelId, PageQuery.parse(after, limit, order)))
                .map(page -> ListPage.of(page.data().stream().map(CheckpointResponse::of).toList(),
                        CheckpointResponse::id, page.hasMore()));
    }

    /**
     * What the inference-gateway needs to serve {@code wandb-artifact:///entity/project/name[:stepN]} (a
     * {@code CheckpointSaved}, as on {@code training.checkpoints}); it asks with its caller's key for a name it has
     * not yet seen there. Not part of W&B's API.
     */
    @GET
    @Path("serving-checkpoints/{entity}/{project}/{name}")
    public Uni<CheckpointSaved> servingCheckpoint(@RestPath String entity, @RestPath String project, @RestPath String name,
            @RestQuery String step) {
        models.requireVisibleEntity(entity, project, name);
        return checkpoints.serving(entity, project, name, Parameters.optionalInt(step, In.QUERY, "step", 0, Integer.MAX_VALUE).orElse(null));
    }

    @DELETE
    @Path("models/{model_id}")
    public Uni<ModelDeletion> deleteModel(@RestPath("model_id") String modelId) {
        return models.delete(modelId);
    }

    /** DELETE with a JSON body {@code {"steps": [...]}}, as W&B's schema has it. */
    @DELETE
    @Path("models/{model_id}/checkpoints")
    public Uni<CheckpointDeletion> deleteCheckpoints(@RestPath("model_id") String modelId, DeleteCheckpoints request) {
        return checkpoints.delete(modelId, request);
    }

    @POST
    @Path("models/{model_id}/log")
    public Uni<LoggedMetrics> log(@RestPath("model_id") String modelId, LogRequest request) {
        return checkpoints.log(modelId, request);
    }
}
