package org.llmplatform.training.service;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.llmplatform.model.events.CheckpointSaved;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.training.store.CheckpointSaveOutcome;
import org.llmplatform.training.store.CheckpointStore;
import org.llmplatform.training.store.Model;

/** The checkpoints of a model: listed by step for callers, registered as trainers save them. */
@ApplicationScoped
public class CheckpointService {

    private final ModelService models;
    private final CheckpointStore checkpoints;

    public CheckpointService(ModelService models, CheckpointStore checkpoints) {
        this.models = models;
        this.checkpoints = checkpoints;
    }

    public Uni<CheckpointPage> list(String modelId, PageRequest page) {
        return models.findAccessible(modelId)
                .chain(model -> afterStep(model, page.after())
                        .chain(afterStep -> checkpoints.list(model.id(), afterStep, page.descending(), page.limit() + 1)))
                .map(fetched -> CheckpointPage.of(fetched, page.limit()));
    }

    /** Registers the step a trainer saved; a step already registered stays as it is. */
    public Uni<CheckpointSaveOutcome> register(UUID modelId, CheckpointSaved saved) {
        return checkpoints.save(modelId, saved.step(), saved.artifactUri(), saved.jobId(), finiteMetrics(saved.metrics()));
    }

    private Uni<Optional<Integer>> afterStep(Model model, Optional<UUID> after) {
        if (after.isEmpty()) {
            return Uni.createFrom().item(Optional.empty());
        }
        return checkpoints.stepOf(model.id(), after.get()).invoke(step -> {
            if (step.isEmpty()) {
                throw ApiException.invalidField("value_error", List.of("query", "after"),
                        "Value error, '" + after.get() + "' is not a checkpoint of model '" + model.id() + "'", after.get().toString());
            }
        });
    }

    /** JSON numbers only: a trainer may report NaN or no value for a diverged metric, which the API cannot carry. */
    private static Map<String, Double> finiteMetrics(Map<String, Double> metrics) {
        Map<String, Double> finite = new LinkedHashMap<>();
        if (metrics != null) {
            metrics.forEach((name, value) -> {
                if (name != null && value != null && Double.isFinite(value)) {
                    finite.put(name, value);
                }
            });
        }
        return finite;
    }
}
