package org.llmplatform.training.service;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** The JSON body of {@code DELETE /v1/preview/models/{id}/checkpoints}. */
@RegisterForReflection
public record DeleteCheckpoints(List<Integer> steps) {
}
