package org.llmplatform.training.service.trainer;

import java.util.Map;
import org.llmplatform.llama.lora.LoraAdapter;

/** The adapter a job produced, its metrics averaged over gradient steps (plus job-level ones), and its work. */
public record TrainingOutcome(LoraAdapter adapter, Map<String, Double> metrics, int gradientSteps, long trainedTokens) {
}
