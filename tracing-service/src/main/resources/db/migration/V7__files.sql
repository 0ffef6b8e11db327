-- One row per file of a project, keyed by its Weave digest (section 7.1 of the spec). The bytes live in
-- the shared blob store, content-addressed by SHA-256, so equal files of many projects are stored once.
CREATE TABLE tracing.files (
    project_id  text        NOT NULL,
    digest      text        NOT NULL,
    name        text        NOT NULL,
    size_bytes  bigint      NOT NULL,
    blob_uri    text        NOT NULL,
    blob_sha256 text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, digest)
);
