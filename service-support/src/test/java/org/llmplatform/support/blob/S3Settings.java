package org.llmplatform.support.blob;

import java.net.URI;
import java.util.Optional;
import org.llmplatform.engines.S3Server;

/** The S3 backend's settings for a bucket of a test's {@link S3Server}, reached at {@code endpoint}. */
record S3Settings(Optional<URI> endpoint, String bucket, long partSizeBytes) implements BlobConfig.S3 {

    static S3Settings of(S3Server server, String bucket) {
        return new S3Settings(Optional.of(server.endpoint()), bucket, S3BlobStore.MIN_PART_BYTES);
    }

    S3Settings through(URI otherEndpoint) {
        return new S3Settings(Optional.of(otherEndpoint), bucket, partSizeBytes);
    }

    @Override
    public String region() {
        return S3Server.REGION;
    }

    @Override
    public boolean pathStyle() {
        return true;
    }

    @Override
    public Optional<String> accessKeyId() {
        return Optional.of(S3Server.ACCESS_KEY);
    }

    @Override
    public Optional<String> secretAccessKey() {
        return Optional.of(S3Server.SECRET_KEY);
    }

    @Override
    public int uploadConcurrency() {
        return 4;
    }

    @Override
    public boolean createBucket() {
        return true;
    }
}
