package org.llmplatform.training.sft;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.llmplatform.model.events.BlobReference;

/** The SQL over {@code training.files}. */
@ApplicationScoped
class TrainingFileStore {

    private final Pool pool;

    TrainingFileStore(Pool pool) {
        this.pool = pool;
    }

    Uni<TrainingFile> insert(UUID id, String owner, BlobReference blob, int lineCount) {
        return pool.preparedQuery("""
                INSERT INTO training.files (id, owner, blob_uri, sha256, byte_count, line_count) VALUES ($1, $2, $3, $4, $5, $6)
                RETURNING id, owner, blob_uri, sha256, byte_count, line_count, created_at""")
                .execute(Tuple.from(List.of(id, owner, blob.uri(), blob.sha256(), blob.byteCount(), lineCount)))
                .map(rows -> read(rows.iterator().next()));
    }

    Uni<Optional<TrainingFile>> find(UUID id) {
        return pool.preparedQuery("SELECT id, owner, blob_uri, sha256, byte_count, line_count, created_at FROM training.files WHERE id = $1")
                .execute(Tuple.of(id))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(read(rows.iterator().next())));
    }

    private static TrainingFile read(Row row) {
        return new TrainingFile(row.getUUID("id"), row.getString("owner"),
                new BlobReference(row.getString("blob_uri"), row.getString("sha256"), row.getLong("byte_count")), row.getInteger("line_count"),
                row.getOffsetDateTime("created_at").toInstant());
    }
}
