package org.llmplatform.support.blob;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.jboss.logging.Logger;
import org.llmplatform.model.events.BlobReference;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import org.apache.commons.codec.digest.DigestUtils;

/**
 * Blobs as objects of one bucket, keyed as the filesystem lays them out ({@code sha256/ab/abcdef…}), through
 * the AWS SDK's synchronous client: any S3-compatible server (AWS, MinIO, S3Proxy, GCS's XML API).
 * <p>
 * The object key is the digest, so bytes whose digest is not yet known are first spooled to a local file
 * while it is computed (objects up to {@link #IN_MEMORY_MAX_BYTES} are held in memory instead); a file is
 * then sent in one PUT when it fits a part, else as a multipart upload whose parts are read from the file on
 * each attempt (the SDK retries a failed part; memory holds no more than the
 * client's socket buffers). A blob appears only when its upload completes: a failed multipart upload is
 * aborted, and a single PUT that breaks off stores nothing.
 */
public final class S3BlobStore extends WorkerBlobStore implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(S3BlobStore.class);
    /** The smallest part S3 accepts (but for the last). */
    static final long MIN_PART_BYTES = 5L * 1024 * 1024;
    /**
     * Objects up to this size are held in memory on their way up: no spool file, and one PUT without a HEAD
     * (see {@link #putFromMemory}). Well below the part size on purpose: a service's heap is a couple of hundred MB
     * and several uploads run at once, so a whole part per upload would not fit; larger objects still stream
     * through a spool file (this much of their head is buffered while telling the two apart).
     */
    static final int IN_MEMORY_MAX_BYTES = 1024 * 1024;

    private final S3Client s3;
    private final String bucket;
    private final long partBytes;
    private final ExecutorService partUploads;

    public S3BlobStore(BlobConfig.S3 config) {
        this.s3 = client(config);
        this.bucket = config.bucket();
        this.partBytes = Math.max(MIN_PART_BYTES, config.partSizeBytes());
        this.partUploads = Executors.newFixedThreadPool(Math.max(1, config.uploadConcurrency()), runnable -> {
            Thread thread = new Thread(runnable, "blob-s3-part-upload");
            thread.setDaemon(true);
            return thread;
        });
        if (config.createBucket()) {
            createBucketIfMissing();
        }
    }

    private static S3Client client(BlobConfig.S3 config) {
        S3ClientBuilder builder = S3Client.builder()
                .region(Region.of(config.region()))
                .forcePathStyle(config.pathStyle())
                .credentialsProvider(credentials(config))
                // Checksums only where the API requires them: S3-compatible servers differ in the newer ones,
                // and every blob is verified against its SHA-256 when read anyway.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                // Nor does the signature hash the bodies: their digest is their key (see UnsignedPayloadAuthScheme).
                .putAuthScheme(new UnsignedPayloadAuthScheme())
                .httpClientBuilder(Apache5HttpClient.builder().maxConnections(Math.max(8, 2 * config.uploadConcurrency())));
        config.endpoint().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    private static AwsCredentialsProvider credentials(BlobConfig.S3 config) {
        if (config.accessKeyId().isPresent() && config.secretAccessKey().isPresent()) {
            return StaticCredentialsProvider.create(AwsBasicCredentials.create(config.accessKeyId().get(), config.secretAccessKey().get()));
        }
        return DefaultCredentialsProvider.builder().build();
    }

    private void createBucketIfMissing() {
        try {
            s3.headBucket(request -> request.bucket(bucket));
        } catch (S3Exception missing) {
            if (missing.statusCode() != 404) {
                throw missing;
            }
            try {
                s3.createBucket(request -> request.bucket(bucket));
                LOG.infof("Created the blob bucket %s", bucket);
            } catch (S3Exception createdMeanwhile) {
                // 409: another service created it first (BucketAlreadyOwnedByYou, or BucketAlreadyExists on some servers).
                if (createdMeanwhile.statusCode() != 409) {
                    throw createdMeanwhile;
                }
            }
        }
    }

    @Override
    protected BlobReference store(InputStream content) throws IOException {
        byte[] head = content.readNBytes(IN_MEMORY_MAX_BYTES + 1);
        if (head.length <= IN_MEMORY_MAX_BYTES) {
            return putFromMemory(head);
        }
        Path spool = Files.createTempFile("blob-", ".spool");
        try {
            MessageDigest sha256 = DigestUtils.getSha256Digest();
            long byteCount;
            try (OutputStream out = new DigestOutputStream(Files.newOutputStream(spool), sha256)) {
                out.write(head);
                byteCount = head.length + content.transferTo(out);
            }
            return upload(spool, ContentAddress.hex(sha256), byteCount);
        } finally {
            Files.deleteIfExists(spool);
        }
    }

    @Override
    protected BlobReference store(Path file) throws IOException {
        if (Files.size(file) <= IN_MEMORY_MAX_BYTES) {
            return putFromMemory(Files.readAllBytes(file));
        }
        MessageDigest sha256 = DigestUtils.getSha256Digest();
        long byteCount;
        try (InputStream in = Files.newInputStream(file); OutputStream digesting = new DigestOutputStream(OutputStream.nullOutputStream(), sha256)) {
            byteCount = in.transferTo(digesting);
        }
        return upload(file, ContentAddress.hex(sha256), byteCount);
    }

    @Override
    protected BlobReference store(byte[] content) throws IOException {
        return content.length > partBytes ? super.store(content) : putFromMemory(content);
    }

    /**
     * One PUT from memory. A small object is put without a HEAD first: the key is the digest of the bytes, so
     * putting them again over a stored blob rewrites the same bytes (S3 replaces an object atomically, a reader
     * sees the old or the new one, never part of either), and for a small object asking first costs a round trip
     * as long as the PUT itself.
     */
    private BlobReference putFromMemory(byte[] content) {
        String digest = DigestUtils.sha256Hex(content);
        if (content.length <= IN_MEMORY_MAX_BYTES || !contains(digest)) {
            s3.putObject(request -> request.bucket(bucket).key(ContentAddress.key(digest)).contentLength((long) content.length),
                    RequestBody.fromBytes(content));
        }
        return ContentAddress.reference(digest, content.length);
    }

    /** Larger objects ask first: a HEAD is cheaper than sending megabytes the bucket already holds. */
    private BlobReference upload(Path file, String digest, long byteCount) throws IOException {
        String key = ContentAddress.key(digest);
        if (!contains(digest)) {
            if (byteCount <= partBytes) {
                s3.putObject(request -> request.bucket(bucket).key(key).contentLength(byteCount), RequestBody.fromFile(file));
            } else {
                uploadInParts(file, key, byteCount);
            }
        }
        return ContentAddress.reference(digest, byteCount);
    }

    private void uploadInParts(Path file, String key, long byteCount) throws IOException {
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();
        List<Future<CompletedPart>> parts = new ArrayList<>();
        try {
            int partNumber = 1;
            for (long offset = 0; offset < byteCount; offset += partBytes, partNumber++) {
                long length = Math.min(partBytes, byteCount - offset);
                long from = offset;
                int number = partNumber;
                parts.add(partUploads.submit(() -> uploadPart(file, key, uploadId, number, from, length)));
            }
            List<CompletedPart> completed = new ArrayList<>(parts.size());
            for (Future<CompletedPart> part : parts) {
                completed.add(part.get());
            }
            s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
                    .multipartUpload(upload -> upload.parts(completed)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abort(key, uploadId, parts, e);
            throw new IOException("interrupted while uploading " + key, e);
        } catch (ExecutionException e) {
            abort(key, uploadId, parts, e.getCause());
            throw e.getCause() instanceof IOException io ? io : new IOException("could not upload " + key + ": " + e.getCause().getMessage(), e.getCause());
        } catch (RuntimeException e) {
            abort(key, uploadId, parts, e);
            throw e;
        }
    }

    private CompletedPart uploadPart(Path file, String key, String uploadId, int partNumber, long offset, long length) {
        String eTag = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(partNumber).contentLength(length),
                RequestBody.fromContentProvider(() -> openSlice(file, offset, length), length, "application/octet-stream")).eTag();
        return CompletedPart.builder().partNumber(partNumber).eTag(eTag).build();
    }

    private static InputStream openSlice(Path file, long offset, long length) {
        try {
            return new FileSlice(file, offset, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the parts still running and drops the upload, so its parts neither linger nor ever become an object. */
    private void abort(String key, String uploadId, List<Future<CompletedPart>> parts, Throwable cause) {
        parts.forEach(part -> part.cancel(true));
        try {
            s3.abortMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId));
        } catch (RuntimeException abortFailed) {
            cause.addSuppressed(abortFailed);
        }
    }

    @Override
    protected InputStream read(String digest) {
        try {
            return s3.getObject(request -> request.bucket(bucket).key(ContentAddress.key(digest)));
        } catch (NoSuchKeyException missing) {
            return null;
        }
    }

    @Override
    protected boolean contains(String digest) {
        try {
            s3.headObject(request -> request.bucket(bucket).key(ContentAddress.key(digest)));
            return true;
        } catch (NoSuchKeyException missing) {
            return false;
        } catch (S3Exception failed) {
            if (failed.statusCode() == 404) {
                return false;
            }
            throw failed;
        }
    }

    @Override
    protected void remove(String digest) {
        s3.deleteObject(request -> request.bucket(bucket).key(ContentAddress.key(digest)));
    }

    @Override
    protected Stream<BlobReference> listing(String keyPrefix, String digestPrefix) {
        return s3.listObjectsV2Paginator(request -> request.bucket(bucket).prefix(keyPrefix)).contents().stream()
                .filter(object -> ContentAddress.digestInKey(object.key()) != null)
                .map(object -> ContentAddress.reference(ContentAddress.digestInKey(object.key()), object.size()));
    }

    @Override
    public void close() {
        partUploads.shutdownNow();
        s3.close();
    }
}
