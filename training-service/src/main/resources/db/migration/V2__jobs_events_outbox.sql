-- Models deleted through the API, so that a retried DELETE answers like the first one did.
CREATE TABLE training.deleted_models (
    id          uuid        PRIMARY KEY,
    entity      text        NOT NULL,
    deleted_at  timestamptz NOT NULL DEFAULT now()
);

-- One training job = one RL step of a model. A job is dispatched (published on training.jobs.requested,
-- parent_step fixed) only when no other job of its model is dispatched and unfinished.
CREATE TABLE training.jobs (
    id                   uuid        PRIMARY KEY,
    model_id             uuid        NOT NULL REFERENCES training.models (id) ON DELETE CASCADE,
    status               text        NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')),
    request_digest       text        NOT NULL,
    trajectories_uri     text        NOT NULL,
    trajectories_sha256  text        NOT NULL,
    trajectories_bytes   bigint      NOT NULL,
    config               jsonb       NOT NULL,
    parent_step          integer,
    dispatched_at        timestamptz,
    lease_expires_at     timestamptz,
    last_seq             bigint      NOT NULL DEFAULT -1,
    end_reported         boolean     NOT NULL DEFAULT false,
    error_message        text,
    created_at           timestamptz NOT NULL DEFAULT now(),
    training_start       timestamptz,
    training_end         timestamptz
);
CREATE INDEX jobs_model_created ON training.jobs (model_id, created_at);
CREATE INDEX jobs_unfinished_lease ON training.jobs (lease_expires_at) WHERE status IN ('QUEUED', 'RUNNING');

-- The events the API shows for a job, in the order they were accepted.
CREATE TABLE training.job_events (
    position    bigserial   PRIMARY KEY,
    id          uuid        NOT NULL UNIQUE,
    job_id      uuid        NOT NULL REFERENCES training.jobs (id) ON DELETE CASCADE,
    type        text        NOT NULL,
    data        jsonb       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_events_by_job ON training.job_events (job_id, position);

-- Kafka records written with the state change they announce; the outbox relay publishes and deletes them.
CREATE TABLE training.outbox (
    id           bigserial   PRIMARY KEY,
    topic        text        NOT NULL,
    message_key  text,
    payload      text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
