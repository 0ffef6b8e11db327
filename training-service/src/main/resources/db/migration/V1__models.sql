-- Models registered through POST /v1/preview/models; a name is unique within its project.
CREATE TABLE training.models (
    id          uuid        PRIMARY KEY,
    entity      text        NOT NULL,
    project     text        NOT NULL,
    name        text        NOT NULL,
    base_model  text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT models_name_unique UNIQUE (entity, project, name)
);

-- One row per saved step of a model: step 0 at registration, step N+1 per completed training job.
CREATE TABLE training.checkpoints (
    id            uuid        PRIMARY KEY,
    model_id      uuid        NOT NULL REFERENCES training.models (id) ON DELETE CASCADE,
    step          integer     NOT NULL CHECK (step >= 0),
    artifact_uri  text,
    job_id        text,
    metrics       jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT checkpoints_step_unique UNIQUE (model_id, step)
);
