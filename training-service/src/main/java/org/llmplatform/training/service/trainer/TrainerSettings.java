package org.llmplatform.training.service.trainer;

/**
 * How the embedded trainer builds and moves adapters: the LoRA shape of a model's first adapter (ART: r 8,
 * α 16), the seed of its A matrices and of row shuffling (ART: 3407), and the factor applied to the job's
 * learning rate (ART's 5e-6 is tuned for multi-billion-parameter models and barely moves a 260K one).
 */
public record TrainerSettings(int loraRank, double loraAlpha, long seed, double learningRateMultiplier) {
}
