-- Versioned objects (spec section 7). One row per (project, kind, object id, digest): publishing
-- the same value again is a no-op, version_index counts deleted versions so it never shifts, and
-- is_latest marks the newest version that is not deleted. val_dump is the canonical JSON the digest
-- was computed from.
CREATE TABLE tracing.objects (
    project_id        text        NOT NULL,
    object_id         text        NOT NULL,
    kind              text        NOT NULL,
    digest            text        NOT NULL,
    version_index     integer     NOT NULL,
    is_latest         boolean     NOT NULL,
    base_object_class text,
    leaf_object_class text,
    val_dump          text        NOT NULL,
    svc_user_id       text        NOT NULL,
    created_at        timestamptz NOT NULL,
    deleted_at        timestamptz,
    PRIMARY KEY (project_id, object_id, kind, digest)
);

CREATE INDEX objects_by_creation ON tracing.objects (project_id, created_at, version_index);
CREATE INDEX objects_by_digest ON tracing.objects (project_id, digest);

-- Table rows, stored once per project and digest however many tables hold them.
CREATE TABLE tracing.table_rows (
    project_id text NOT NULL,
    digest     text NOT NULL,
    val_dump   text NOT NULL,
    PRIMARY KEY (project_id, digest)
);

-- An immutable table: its rows' digests in order (duplicates allowed); digest = hex SHA-256 of them.
CREATE TABLE tracing.tables (
    project_id  text        NOT NULL,
    digest      text        NOT NULL,
    row_digests text[]      NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, digest)
);

-- Kafka records written with the object versions they announce; the outbox relay publishes and deletes them.
CREATE TABLE tracing.outbox (
    id          bigserial   PRIMARY KEY,
    topic       text        NOT NULL,
    message_key text,
    payload     text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
