package org.llmplatform.tracing.files;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Limits of {@code /file/create}. */
@ConfigMapping(prefix = "tracing.files")
public interface FileConfig {

    /** The largest file accepted, in bytes; a larger one is refused with 413. */
    @WithDefault("31457280")
    long maxSizeBytes();
}
