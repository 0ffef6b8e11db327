package org.llmplatform.support.blob;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import org.jboss.logging.Logger;

/** The blob store {@code platform.blob.store} chooses, the one every service injects. */
@ApplicationScoped
public class BlobStores {

    private static final Logger LOG = Logger.getLogger(BlobStores.class);

    @Produces
    @ApplicationScoped
    @DefaultBean
    BlobStore blobStore(BlobConfig config) {
        return switch (config.store()) {
            case FILES -> new FilesystemBlobStore(config.root());
            case S3 -> {
                LOG.infof("Blobs are kept in bucket %s of %s", config.s3().bucket(), config.s3().endpoint().map(Object::toString).orElse("AWS S3"));
                S3BlobStore bucket = new S3BlobStore(config.s3());
                yield config.cacheRoot().<BlobStore>map(cache -> new ReadThroughBlobStore(bucket, new FilesystemBlobStore(cache))).orElse(bucket);
            }
        };
    }

    void close(@Disposes BlobStore store) throws Exception {
        if (store instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
