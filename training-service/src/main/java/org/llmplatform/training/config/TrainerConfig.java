package org.llmplatform.training.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The embedded pure-Java trainer (docs/training-service.md#embedded-trainer): a consumer of {@code training.jobs.requested} for jobs of its
 * base model. Turn it off ({@code training.trainer.enabled=false}) where GPU workers serve the topic.
 */
@ConfigMapping(prefix = "training.trainer")
public interface TrainerConfig {

    /** Whether this service trains the jobs of {@link #baseModel()} itself. */
    @WithDefault("true")
    boolean enabled();

    /** The base model (a name of {@code training.base-models}) whose jobs the embedded trainer takes. */
    @WithDefault("stories260K")
    String baseModel();

    /** The llama2.c checkpoint of the base model; a job fails with a clear message while it is unset. */
    Optional<Path> checkpoint();

    /** The llama2.c tokenizer of the base model. */
    Optional<Path> tokenizer();

    /**
     * The factor applied to each job's {@code learning_rate}. ART's default 5e-6 suits billion-parameter models
     * and leaves a 260K-parameter one unchanged; 100 makes it 5e-4, where stories260K learns a word-count reward
     * within 15 jobs (1000 overshoots and collapses it).
     */
    @WithDefault("100")
    double learningRateMultiplier();

    /** LoRA rank of a model's first adapter (ART: 8; at most the model's dim). */
    @WithDefault("8")
    int loraRank();

    /** LoRA alpha of a model's first adapter (ART: 16). */
    @WithDefault("16")
    double loraAlpha();

    /** Seed of the first adapter's A matrices and of row shuffling (ART: 3407). */
    @WithDefault("3407")
    long seed();

    /** How often a running job reports a heartbeat; well under {@code training.jobs.heartbeat-lease}. */
    @WithDefault("10s")
    Duration heartbeatInterval();

    /** Jobs trained at once (jobs of one model always run one after another). */
    @WithDefault("1")
    int threads();

    /** Threads computing the sequences of a row side by side; the number of processors when unset. */
    Optional<Integer> parallelism();
}
