-- Per-project call retention (Weave's project TTL settings, /project/ttl_settings/update): the calls of a project
-- with a row here that started more than retention_days ago are deleted in batches by CallRetentionJob, with their
-- feedback. No row (the default): calls are kept for ever. Only a table: nothing is rewritten on a populated database.
CREATE TABLE tracing.project_retention (
    project_id     text        PRIMARY KEY,
    retention_days integer     NOT NULL CHECK (retention_days >= 1),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    updated_by     text        NOT NULL
);
