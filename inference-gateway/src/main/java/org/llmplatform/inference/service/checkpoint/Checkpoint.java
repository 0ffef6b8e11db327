package org.llmplatform.inference.service.checkpoint;

/**
 * One registered step of a trained model: served on top of {@code baseModel} with the LoRA adapter whose
 * manifest blob is {@code artifactUri} (none: the base model itself).
 */
public record Checkpoint(String entity, String project, String modelName, int step, String modelId,
        String baseModel, String artifactUri) {

    public CheckpointName name() {
        return new CheckpointName(entity, project, modelName, step);
    }
}
