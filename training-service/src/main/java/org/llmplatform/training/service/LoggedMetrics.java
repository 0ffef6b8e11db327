package org.llmplatform.training.service;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.Map;

/** The metrics one {@code log} call computed, and the step whose checkpoint now carries them. */
@RegisterForReflection
public record LoggedMetrics(int step, Map<String, Double> metrics) {
}
