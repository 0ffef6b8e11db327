package org.llmplatform.tracing.objects;

import io.vertx.mutiny.sqlclient.Row;
import java.time.OffsetDateTime;

/** One stored version of an object; {@code valDump} is the canonical JSON its digest was computed from. */
public record ObjectVersion(String projectId, String objectId, String kind, String digest, int versionIndex,
        boolean isLatest, String baseObjectClass, String leafObjectClass, String valDump, String svcUserId,
        OffsetDateTime createdAt, OffsetDateTime deletedAt) {

    static final String COLUMNS = "project_id, object_id, kind, digest, version_index, is_latest, base_object_class, "
            + "leaf_object_class, val_dump, svc_user_id, created_at, deleted_at";

    static ObjectVersion from(Row row) {
        return new ObjectVersion(row.getString("project_id"), row.getString("object_id"), row.getString("kind"),
                row.getString("digest"), row.getInteger("version_index"), row.getBoolean("is_latest"),
                row.getString("base_object_class"), row.getString("leaf_object_class"), row.getString("val_dump"),
                row.getString("svc_user_id"), row.getOffsetDateTime("created_at"), row.getOffsetDateTime("deleted_at"));
    }

    public boolean deleted() {
        return deletedAt != null;
    }
}
