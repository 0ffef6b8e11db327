package org.llmplatform.training.sft;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The body of {@code POST /v1/preview/sft-training-jobs} (W&B's {@code CreateSFTTrainingJob}, as ART's
 * {@code SFTTrainingJobs.create} sends it). {@code training_data_url} names the JSONL training file; W&B's
 * {@code experimental_config} is accepted and has no effect (no SFT option is defined for it).
 */
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CreateSftTrainingJob(String modelId, JsonNode trainingDataUrl, SftTrainingConfig config, JsonNode experimentalConfig) {
}
