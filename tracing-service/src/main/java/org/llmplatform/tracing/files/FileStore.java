package org.llmplatform.tracing.files;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** The SQL over {@code tracing.files}. */
@ApplicationScoped
public class FileStore {

    private final Pool pool;

    public FileStore(Pool pool) {
        this.pool = pool;
    }

    /** Records the file once per digest: uploading the same bytes again keeps the first row. */
    public Uni<Void> save(FileRow file) {
        return pool.preparedQuery("""
                INSERT INTO tracing.files (project_id, digest, name, size_bytes, blob_uri, blob_sha256)
                VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (project_id, digest) DO NOTHING""")
                .execute(Tuple.of(file.projectId(), file.digest(), file.name(), file.sizeBytes(), file.blobUri(),
                        file.blobSha256()))
                .replaceWithVoid();
    }

    public Uni<Optional<FileRow>> find(String projectId, String digest) {
        return pool.preparedQuery("""
                SELECT project_id, digest, name, size_bytes, blob_uri, blob_sha256
                FROM tracing.files WHERE project_id = $1 AND digest = $2""")
                .execute(Tuple.of(projectId, digest))
                .map(FileStore::first);
    }

    /** The bytes of the project's files, each digest once (0 without files). */
    public Uni<Long> totalSize(String projectId) {
        return pool.preparedQuery("SELECT coalesce(sum(size_bytes), 0)::bigint AS total FROM tracing.files WHERE project_id = $1")
                .execute(Tuple.of(projectId))
                .map(rows -> rows.iterator().next().getLong("total"));
    }

    private static Optional<FileRow> first(RowSet<Row> rows) {
        if (!rows.iterator().hasNext()) {
            return Optional.empty();
        }
        Row row = rows.iterator().next();
        return Optional.of(new FileRow(row.getString("project_id"), row.getString("digest"), row.getString("name"),
                row.getLong("size_bytes"), row.getString("blob_uri"), row.getString("blob_sha256")));
    }
}
