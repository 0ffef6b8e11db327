package org.llmplatform.training.store;

/** The model under a name, and whether this registration created it or found it already there. */
public record ModelRegistration(Model model, boolean created) {
}
