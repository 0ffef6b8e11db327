package org.llmplatform.support.blob;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;

@ConfigMapping(prefix = "platform.blob")
public interface BlobConfig {

    enum Backend {
        /** Files under {@link #root()}: one machine, or a volume every reader mounts. */
        FILES,
        /** Objects of a bucket of any S3-compatible server: what clusters use. */
        S3
    }

    /** Which backend holds the blobs ({@code files} or {@code s3}). */
    @WithDefault("files")
    Backend store();

    /** The folder the filesystem backend writes under. */
    @WithDefault("data/blobs")
    Path root();

    /**
     * With the S3 backend, a folder keeping local copies of the blobs this service reads (the gateway's
     * checkpoints), so each is fetched once; absent: every read goes to the bucket.
     */
    Optional<Path> cacheRoot();

    S3 s3();

    interface S3 {

        /** The server's URL; absent for AWS itself (the region's endpoint). */
        Optional<URI> endpoint();

        @WithDefault("us-east-1")
        String region();

        @WithDefault("llm-platform-blobs")
        String bucket();

        /** Addresses the bucket in the path ({@code host/bucket/key}) as MinIO and S3Proxy expect, not in the host name. */
        @WithDefault("false")
        boolean pathStyle();

        /** With {@link #secretAccessKey()}; both absent: the SDK's default chain (environment, profile, IRSA, instance role). */
        Optional<String> accessKeyId();

        Optional<String> secretAccessKey();

        /** Objects larger than this go up as multipart uploads of parts this size (at least 5 MiB, S3's minimum). */
        @WithDefault("16777216")
        long partSizeBytes();

        /** Parts of one multipart upload sent at once. */
        @WithDefault("4")
        int uploadConcurrency();

        /** Creates the bucket at start when missing: for a local or test server; clusters provision it. */
        @WithDefault("false")
        boolean createBucket();
    }
}
