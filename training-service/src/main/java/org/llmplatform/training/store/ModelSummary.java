package org.llmplatform.training.store;

import java.time.Instant;

/** A registered model as a project's list shows it: with its latest step (null once every checkpoint is gone) and when it was registered. */
public record ModelSummary(Model model, Integer latestStep, Instant registeredAt) {
}
