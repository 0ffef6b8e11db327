package org.llmplatform.training.store;

/** Where a step of a model is stored; {@code artifactUri} is null for the untrained step 0. */
public record CheckpointRef(int step, String artifactUri) {
}
