package org.llmplatform.tracing.files;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.util.List;
import org.llmplatform.model.events.BlobReference;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.blob.BlobChunks;
import org.llmplatform.support.blob.BlobNotFoundException;
import org.llmplatform.support.blob.BlobStore;
import org.llmplatform.support.error.ApiException;
import org.llmplatform.tracing.digest.Digests;

/**
 * Files of a project (docs/tracing-service.md#files): the bytes go to the blob store once per content, the project
 * keeps a row per Weave digest, so re-uploading the same bytes is idempotent and answers the same digest.
 */
@ApplicationScoped
public class FileService {

    static final String UNNAMED = "<unnamed_file>";

    private final FileStore store;
    private final BlobStore blobs;
    private final CurrentPrincipal caller;
    private final FileConfig config;

    public FileService(FileStore store, BlobStore blobs, CurrentPrincipal caller, FileConfig config) {
        this.store = store;
        this.blobs = blobs;
        this.caller = caller;
        this.config = config;
    }

    /** An uploaded part as the HTTP layer received it: a temporary file, its size and the part's filename. */
    public record Upload(Path content, long sizeBytes, String fileName) {
    }

    public Uni<String> create(String projectId, Upload upload) {
        requirePresent(projectId, "project_id");
        String project = caller.requireProject(projectId).toString();
        requirePresent(upload, "file");
        checkSize(upload.sizeBytes());
        String name = upload.fileName() == null || upload.fileName().isBlank() ? UNNAMED : upload.fileName();
        // The upload streams from its temporary file into the blob store; Weave's file digest is the same
        // SHA-256 the store computes on the way, only spelled differently.
        return blobs.put(upload.content()).chain(blob -> saved(project, name, blob));
    }

    /** A file the server writes itself (the source of an op it publishes), as an upload of those bytes would. */
    public Uni<String> create(String projectId, String fileName, byte[] content) {
        String project = caller.requireProject(projectId).toString();
        checkSize(content.length);
        return blobs.put(content).chain(blob -> saved(project, fileName, blob));
    }

    private Uni<String> saved(String project, String name, BlobReference blob) {
        checkSize(blob.byteCount());
        String digest = Digests.sha256HexDigest(blob.sha256());
        return store.save(new FileRow(project, digest, name, blob.byteCount(), blob.uri(), blob.sha256())).replaceWith(digest);
    }

    /** The bytes of a file in the chunks a response writes; 404 when the project has no file with that digest. */
    public Multi<byte[]> content(String projectId, String digest) {
        requirePresent(projectId, "project_id");
        requirePresent(digest, "digest");
        String project = caller.requireProject(projectId).toString();
        return store.find(project, digest).onItem().transformToMulti(found -> {
            FileRow file = found.orElseThrow(() -> ApiException.notFound("File " + digest + " not found"));
            return BlobChunks.read(blobs, new BlobReference(file.blobUri(), file.blobSha256(), file.sizeBytes()));
        }).onFailure(BlobNotFoundException.class).transform(missing -> ApiException.notFound("File " + digest + " not found"));
    }

    private void checkSize(long sizeBytes) {
        if (sizeBytes > config.maxSizeBytes()) {
            throw new ApiException(413, "File too large: " + sizeBytes + " bytes exceeds the limit of "
                    + config.maxSizeBytes() + " bytes");
        }
    }

    private static void requirePresent(Object value, String field) {
        if (value == null) {
            throw ApiException.invalidField("missing", List.of("body", field), "Field required", null);
        }
    }

    /** {@code files/query_stats}: the bytes of the project's files (docs/tracing-service.md#files). */
    public Uni<Long> totalSize(String projectId) {
        return store.totalSize(caller.requireProject(projectId).toString());
    }
}
