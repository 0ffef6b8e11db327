package org.llmplatform.inference.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jboss.resteasy.reactive.RestPath;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.service.OpenAiException;
import org.llmplatform.inference.service.engine.ModelCatalog;
import org.llmplatform.inference.service.engine.ServedModel;
import org.llmplatform.inference.service.response.ModelCard;
import org.llmplatform.inference.service.upstream.UpstreamCatalog;

/** {@code GET /v1/models} (vLLM's ModelCards) and {@code GET /v1/models/{id}} for the SDKs' retrieve. */
@Path("/v1/models")
@Produces(MediaType.APPLICATION_JSON)
public class ModelsResource {

    private final ModelCatalog catalog;
    private final UpstreamCatalog upstreams;

    public ModelsResource(ModelCatalog catalog, UpstreamCatalog upstreams) {
        this.catalog = catalog;
        this.upstreams = upstreams;
    }

    @GET
    public ModelCard.ListOf list() {
        long now = Instant.now().getEpochSecond();
        List<ModelCard> cards = new ArrayList<>();
        catalog.all().forEach(model -> cards.add(card(model, now)));
        upstreams.all().forEach((id, upstream) -> cards.add(card(id, upstream, now)));
        return ModelCard.ListOf.of(cards);
    }

    /** Ids like {@code org/name} contain slashes, so the rest of the path is the id. */
    @GET
    @Path("/{id: .+}")
    public ModelCard retrieve(@RestPath String id) {
        long now = Instant.now().getEpochSecond();
        return catalog.find(id).map(model -> card(model, now))
                .or(() -> upstreams.find(id).map(upstream -> card(id, upstream, now)))
                .orElseThrow(() -> OpenAiException.modelNotFound(id));
    }

    private static ModelCard card(String id, GatewayConfig.Upstream upstream, long now) {
        return ModelCard.base(id, upstream.url(), upstream.maxModelLen().orElse(null), now);
    }

    private static ModelCard card(ServedModel model, long now) {
        return ModelCard.base(model.id(), model.root(), model.maxModelLen(), now);
    }
}
