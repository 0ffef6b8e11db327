-- Trained checkpoints served as wandb-artifact:///entity/project/model_name:stepN, from training.checkpoints.
-- A null artifact_uri is the base model itself (step 0 of a freshly registered model).
CREATE TABLE inference.checkpoints (
    entity        text        NOT NULL,
    project       text        NOT NULL,
    model_name    text        NOT NULL,
    step          integer     NOT NULL CHECK (step >= 0),
    model_id      text,
    base_model    text        NOT NULL,
    artifact_uri  text,
    registered_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (entity, project, model_name, step)
);

CREATE INDEX checkpoints_by_entity ON inference.checkpoints (entity);
