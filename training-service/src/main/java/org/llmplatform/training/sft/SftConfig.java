package org.llmplatform.training.sft;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Set;

/** Limits on the training files of supervised fine-tuning jobs. */
@ConfigMapping(prefix = "training.sft")
public interface SftConfig {

    /** The largest training file accepted, by URL or upload. */
    @WithDefault("67108864")
    long maxFileBytes();

    /** The URL schemes fetched from the network ({@code data:} and {@code training-file:} are always read). */
    @WithDefault("https")
    Set<String> fetchSchemes();

    /** How long fetching a training file may take, connection and body together. */
    @WithDefault("30s")
    Duration fetchTimeout();
}
