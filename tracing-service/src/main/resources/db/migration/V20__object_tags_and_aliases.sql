-- Labels on object versions (docs/tracing-service.md#tags-and-aliases). A tag belongs to one version, any number
-- of versions may carry it; an alias names one version of an object at a time, so it is keyed without the digest
-- and moving it rewrites its row. Deleting a version deletes its labels with it (ObjectStore.delete).
CREATE TABLE tracing.object_tags (
    project_id text        NOT NULL,
    object_id  text        NOT NULL,
    digest     text        NOT NULL,
    tag        text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, object_id, digest, tag)
);

CREATE INDEX object_tags_by_tag ON tracing.object_tags (project_id, tag);

CREATE TABLE tracing.object_aliases (
    project_id text        NOT NULL,
    object_id  text        NOT NULL,
    alias      text        NOT NULL,
    digest     text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, object_id, alias)
);

CREATE INDEX object_aliases_by_alias ON tracing.object_aliases (project_id, alias);
