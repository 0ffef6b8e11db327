package org.llmplatform.inference.checkpoints;

import java.util.regex.Pattern;
import org.llmplatform.model.events.CheckpointSaved;

/**
 * One registered step of a trained model: served on top of {@code baseModel} with the LoRA adapter whose
 * manifest blob is {@code artifactUri} (none: the base model itself).
 */
public record Checkpoint(String entity, String project, String modelName, int step, String modelId,
        String baseModel, String artifactUri) {

    /** Each part becomes a segment of {@code wandb-artifact:///entity/project/name:stepN}. */
    private static final Pattern NAME_PART = Pattern.compile("[^/:\\s]+");

    /**
     * The step a {@code CheckpointSaved} announces; one that cannot be served fails with {@link MalformedCheckpoint}:
     * what the contract itself refuses ({@link CheckpointSaved#problem()}), and what serving needs beyond it.
     */
    public static Checkpoint of(CheckpointSaved saved) {
        if (saved == null) {
            throw new MalformedCheckpoint("the record has no value");
        }
        saved.problem().ifPresent(problem -> {
            throw new MalformedCheckpoint(problem);
        });
        String baseModel = saved.baseModel();
        if (baseModel == null || baseModel.isBlank()) {
            throw new MalformedCheckpoint("base_model is required");
        }
        String artifact = saved.artifactUri() == null || saved.artifactUri().isBlank() ? null : saved.artifactUri();
        return new Checkpoint(namePart(saved.entity(), "entity"), namePart(saved.project(), "project"),
                namePart(saved.modelName(), "model_name"), saved.step(), saved.modelId(), baseModel, artifact);
    }

    public CheckpointName name() {
        return new CheckpointName(entity, project, modelName, step);
    }

    private static String namePart(String value, String field) {
        if (value == null || !NAME_PART.matcher(value).matches()) {
            throw new MalformedCheckpoint(field + " is required and may not contain '/', ':' or spaces, got " + value);
        }
        return value;
    }
}
