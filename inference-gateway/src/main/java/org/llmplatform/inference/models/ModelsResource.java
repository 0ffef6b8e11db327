package org.llmplatform.inference.models;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.resteasy.reactive.RestPath;
import org.llmplatform.inference.catalog.ModelAliases;
import org.llmplatform.inference.catalog.ModelCatalog;
import org.llmplatform.inference.catalog.ServedModel;
import org.llmplatform.inference.checkpoints.Checkpoint;
import org.llmplatform.inference.checkpoints.CheckpointModels;
import org.llmplatform.inference.checkpoints.CheckpointName;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.http.OpenAiException;
import org.llmplatform.inference.upstream.UpstreamCatalog;
import org.llmplatform.support.auth.CurrentPrincipal;

/**
 * {@code GET /v1/models} (vLLM's ModelCards: configured models, upstream models, aliases with their
 * backend as parent, and the trained checkpoints the caller may use, each step and the bare name of
 * each model) and
 * {@code GET /v1/models/{id}} for the SDKs' retrieve.
 */
@Path("/v1/models")
@Produces(MediaType.APPLICATION_JSON)
public class ModelsResource {

    private final ModelCatalog catalog;
    private final UpstreamCatalog upstreams;
    private final CheckpointModels checkpoints;
    private final CurrentPrincipal caller;
    private final ModelAliases aliases;

    public ModelsResource(ModelCatalog catalog, UpstreamCatalog upstreams, CheckpointModels checkpoints,
            CurrentPrincipal caller, ModelAliases aliases) {
        this.aliases = aliases;
        this.catalog = catalog;
        this.upstreams = upstreams;
        this.checkpoints = checkpoints;
        this.caller = caller;
    }

    @GET
    public Uni<ModelCard.ListOf> list() {
        long now = Instant.now().getEpochSecond();
        return checkpoints.visibleTo(caller.get()).map(trained -> {
            List<ModelCard> cards = new ArrayList<>();
            catalog.all().forEach(model -> cards.add(card(model, now)));
            upstreams.all().forEach((id, upstream) -> cards.add(card(id, upstream, now)));
            Map<String, Checkpoint> latest = new HashMap<>();
            for (Checkpoint checkpoint : trained) {
                cards.add(card(checkpoint.name().toString(), checkpoint, now));
                latest.merge(checkpoint.name().bare().toString(), checkpoint,
                        (one, other) -> one.step() >= other.step() ? one : other);
            }
            latest.forEach((bare, checkpoint) -> cards.add(card(bare, checkpoint, now)));
            aliases.all().forEach((alias, backend) -> backendCard(backend, now).ifPresent(card ->
                    cards.add(ModelCard.child(alias, card.ownedBy(), card.root(), backend, card.maxModelLen(), now))));
            return ModelCard.ListOf.of(cards);
        });
    }

    /** Ids like {@code org/name} contain slashes, so the rest of the path is the id. */
    @GET
    @Path("/{id: .+}")
    public Uni<ModelCard> retrieve(@RestPath("id") String path) {
        long now = Instant.now().getEpochSecond();
        String id = CheckpointName.fromPath(path);
        if (CheckpointName.looksLikeOne(id)) {
            return checkpoints.registration(id, caller.get()).map(checkpoint -> card(id, checkpoint, now));
        }
        return Uni.createFrom().item(() -> backendCard(id, now)
                .or(() -> Optional.ofNullable(aliases.all().get(id)).flatMap(backend -> backendCard(backend, now)
                        .map(card -> ModelCard.child(id, card.ownedBy(), card.root(), backend, card.maxModelLen(), now))))
                .orElseThrow(() -> OpenAiException.modelNotFound(id)));
    }

    private Optional<ModelCard> backendCard(String id, long now) {
        return catalog.find(id).map(model -> card(model, now))
                .or(() -> upstreams.find(id).map(upstream -> card(id, upstream, now)));
    }

    private ModelCard card(String id, Checkpoint checkpoint, long now) {
        ServedModel base = catalog.find(checkpoint.baseModel()).orElseThrow();
        return ModelCard.child(id, checkpoint.entity(),
                checkpoint.artifactUri() != null ? checkpoint.artifactUri() : base.root(), checkpoint.baseModel(),
                base.maxModelLen(), now);
    }

    /** The root is the name the upstream serves the model under; its URL is the deployment's business. */
    private static ModelCard card(String id, GatewayConfig.Upstream upstream, long now) {
        return ModelCard.base(id, upstream.model().orElse(id), upstream.maxModelLen().orElse(null), now);
    }

    private static ModelCard card(ServedModel model, long now) {
        return ModelCard.base(model.id(), model.root(), model.maxModelLen(), now);
    }
}
