package org.llmplatform.support.blob;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;

@ConfigMapping(prefix = "platform.blob")
public interface BlobConfig {

    /** The folder the filesystem blob store writes under (a shared volume in Kubernetes). */
    @WithDefault("data/blobs")
    Path root();
}
