package org.llmplatform.localstack;

/**
 * The ART flow with every blob (trajectories, LoRA checkpoints) in a bucket of an S3 server: the training-service
 * writes the adapter there and the gateway serves {@code :step1} by reading it back, sharing no folder.
 */
class ArtTrainingOnS3EndToEndTest extends ArtTrainingEndToEndTest {

    @Override
    protected String blobStore() {
        return "s3";
    }
}
