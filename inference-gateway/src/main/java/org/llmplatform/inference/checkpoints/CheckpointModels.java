package org.llmplatform.inference.checkpoints;

import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;
import org.llmplatform.inference.catalog.ModelCatalog;
import org.llmplatform.inference.catalog.ServedModel;
import org.llmplatform.inference.config.GatewayConfig;
import org.llmplatform.inference.http.OpenAiException;
import org.llmplatform.llama.LlamaEngine;
import org.llmplatform.model.auth.Principal;
import org.llmplatform.support.auth.CurrentPrincipal;

/**
 * Trained checkpoints as served models: {@code wandb-artifact:///entity/project/name:stepN} and the bare
 * name for the latest step, on the embedded engine of their base model with their LoRA adapter merged.
 * Only callers who may use the entity see them; to everyone else they do not exist (404, nothing leaks).
 * Adapters are loaded on first use and kept in a bounded least-recently-used cache. The caller's key (from
 * {@link CurrentPrincipal}) asks the training-service about names not registered here yet.
 */
@Singleton
public class CheckpointModels {

    private static final Logger LOG = Logger.getLogger(CheckpointModels.class);

    private final CheckpointStore store;
    private final ModelCatalog catalog;
    private final AdapterLoader loader;
    private final TrainingCheckpointClient training;
    private final CurrentPrincipal caller;
    private final Map<String, Uni<LlamaEngine>> loaded;

    public CheckpointModels(CheckpointStore store, ModelCatalog catalog, AdapterLoader loader, TrainingCheckpointClient training,
            CurrentPrincipal caller, GatewayConfig config) {
        this.store = store;
        this.catalog = catalog;
        this.loader = loader;
        this.training = training;
        this.caller = caller;
        int capacity = Math.max(1, config.adapters().cacheSize());
        this.loaded = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Uni<LlamaEngine>> eldest) {
                return size() > capacity;
            }
        };
    }

    public Uni<Boolean> register(Checkpoint checkpoint) {
        return store.register(checkpoint);
    }

    /** The model {@code requested} names, for {@code caller}; fails with 404 model_not_found when it may not see it. */
    public Uni<ServedModel> resolve(String requested, Principal caller) {
        return registration(requested, caller).flatMap(checkpoint ->
                serve(requested, checkpoint, catalog.find(checkpoint.baseModel()).orElseThrow()));
    }

    /**
     * The registered step {@code requested} names (the latest for a bare name) when {@code caller} may use
     * it and its base model is served; else a 404 model_not_found failure.
     */
    public Uni<Checkpoint> registration(String requested, Principal caller) {
        Optional<CheckpointName> name = CheckpointName.parse(requested);
        if (name.isEmpty() || !caller.mayAccessEntity(name.get().entity())) {
            return Uni.createFrom().failure(OpenAiException.modelNotFound(requested));
        }
        CheckpointName parsed = name.get();
        Uni<Optional<Checkpoint>> found = parsed.step() == null && training.configured()
                ? latestStep(parsed)
                : registered(parsed).flatMap(hit -> hit.isPresent() ? Uni.createFrom().item(hit) : acknowledgedByTraining(parsed));
        return found.map(checkpoint -> checkpoint.filter(served -> catalog.find(served.baseModel()).isPresent())
                .orElseThrow(() -> OpenAiException.modelNotFound(requested)));
    }

    private Uni<Optional<Checkpoint>> registered(CheckpointName name) {
        return store.find(name.entity(), name.project(), name.modelName(), name.step());
    }

    /**
     * The bare name is the latest step, which only the training-service knows for sure: right after a job's
     * {@code training_ended} this gateway may not have the new step's event yet, and ART samples its next rollouts
     * under the bare name. So it is asked every time (one small indexed lookup); where it knows no step, or cannot
     * answer, the latest step registered here is served rather than nothing.
     */
    private Uni<Optional<Checkpoint>> latestStep(CheckpointName name) {
        return acknowledgedByTraining(name)
                .flatMap(latest -> latest.isPresent() ? Uni.createFrom().item(latest) : registered(name))
                .onFailure(OpenAiException.class).recoverWithUni(unavailable -> registered(name).map(local -> {
                    if (local.isEmpty()) {
                        throw (OpenAiException) unavailable;
                    }
                    return local;
                }));
    }

    /**
     * A name this gateway has not registered may still be one the training API acknowledged a moment ago, whose
     * event on {@code training.checkpoints} is on its way: the training-service, which owns the models, is asked. Asking on
     * a miss keeps a hit free and works wherever the two services keep their data (their own databases in
     * Kubernetes); making the training API wait until every gateway replica had the event would tie it to the
     * gateways' availability and still not cover a replica that starts later. A miss is not remembered: the model
     * may be created the next moment, and the next request must see it. A found step is registered as its event
     * would register it (a repeated registration adds nothing).
     */
    private Uni<Optional<Checkpoint>> acknowledgedByTraining(CheckpointName name) {
        return training.find(name, caller.apiKey()).flatMap(saved -> {
            if (saved.isEmpty()) {
                return Uni.createFrom().item(Optional.<Checkpoint>empty());
            }
            Checkpoint checkpoint;
            try {
                checkpoint = Checkpoint.of(saved.get());
            } catch (MalformedCheckpoint unusable) {
                LOG.warnf("The training-service described %s unusably: %s", name, unusable.getMessage());
                return Uni.createFrom().item(Optional.<Checkpoint>empty());
            }
            if (!checkpoint.name().bare().equals(name.bare()) || name.step() != null && checkpoint.step() != name.step()) {
                LOG.warnf("The training-service answered %s for %s", checkpoint.name(), name);
                return Uni.createFrom().item(Optional.<Checkpoint>empty());
            }
            return store.register(checkpoint).replaceWith(Optional.of(checkpoint));
        });
    }

    /** Every checkpoint {@code caller} may use whose base model is served: each step, and each model's bare name. */
    public Uni<List<Checkpoint>> visibleTo(Principal caller) {
        List<String> entities = null;
        if (!caller.admin()) {
            entities = new ArrayList<>(caller.teams().keySet());
            entities.add(caller.userName());
        }
        return store.ofEntities(entities).map(all -> all.stream()
                .filter(checkpoint -> catalog.find(checkpoint.baseModel()).isPresent())
                .toList());
    }

    private Uni<ServedModel> serve(String requested, Checkpoint checkpoint, ServedModel base) {
        if (checkpoint.artifactUri() == null) {
            return Uni.createFrom().item(new ServedModel(requested, base.root(), base.maxModelLen(), base.engine()));
        }
        return engine(checkpoint, base)
                .map(engine -> new ServedModel(requested, checkpoint.artifactUri(), base.maxModelLen(), engine))
                .onFailure(failure -> !(failure instanceof OpenAiException)).transform(failure -> {
                    LOG.errorf(failure, "Checkpoint %s could not be loaded", checkpoint.name());
                    return new OpenAiException(500, "The checkpoint `" + checkpoint.name() + "` could not be loaded: "
                            + failure.getMessage(), "InternalServerError", null, "model", Map.of());
                });
    }

    private Uni<LlamaEngine> engine(Checkpoint checkpoint, ServedModel base) {
        String key = base.id() + "\n" + checkpoint.artifactUri();
        synchronized (loaded) {
            Uni<LlamaEngine> engine = loaded.get(key);
            if (engine == null) {
                Uni<LlamaEngine> loading = loader.load(base.engine(), checkpoint.artifactUri()).memoize().indefinitely();
                engine = loading.onFailure().invoke(() -> forget(key, loading));
                loaded.put(key, loading);
            }
            return engine;
        }
    }

    private void forget(String key, Uni<LlamaEngine> loading) {
        synchronized (loaded) {
            loaded.remove(key, loading);
        }
    }
}
