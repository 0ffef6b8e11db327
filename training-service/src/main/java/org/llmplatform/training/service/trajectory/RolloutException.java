package org.llmplatform.training.service.trajectory;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A rollout that raised instead of producing a trajectory; {@code type} is the Python class repr. */
@RegisterForReflection
public record RolloutException(String type, String message, String traceback) {
}
