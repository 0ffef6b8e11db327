-- The native training API (docs/training-service.md#native-training-api): runs, their sequenced operations and the
-- learner states saved by save_state. An operation is executed once: an executor claims it with FOR UPDATE SKIP LOCKED
-- when every operation before it in its run has ended, and a run stays with the executor that first claimed one of
-- its operations (its learner state lives in that process's memory).
CREATE TABLE training.native_runs (
    run_id                    text        PRIMARY KEY,
    owner                     text        NOT NULL,
    request_id                text        NOT NULL,
    run_name                  text,
    spec                      jsonb       NOT NULL,
    initial_state             jsonb,
    status                    text        NOT NULL DEFAULT 'open',
    next_sequence_id          bigint      NOT NULL DEFAULT 0,
    projected_learner_version bigint      NOT NULL DEFAULT 0,
    committed_learner_version bigint      NOT NULL DEFAULT 0,
    executor                  text,
    created_at                timestamptz NOT NULL DEFAULT now(),
    updated_at                timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX native_runs_request ON training.native_runs (owner, request_id);
CREATE UNIQUE INDEX native_runs_open_name ON training.native_runs (owner, run_name) WHERE run_name IS NOT NULL AND status = 'open';

CREATE TABLE training.native_operations (
    operation_id                    text        PRIMARY KEY,
    run_id                          text        NOT NULL REFERENCES training.native_runs (run_id) ON DELETE CASCADE,
    request_id                      text        NOT NULL,
    sequence_id                     bigint      NOT NULL,
    kind                            text        NOT NULL,
    command                         jsonb       NOT NULL,
    command_digest                  text        NOT NULL,
    status                          text        NOT NULL DEFAULT 'admitted',
    learner_parent_version          bigint      NOT NULL,
    reserved_output_learner_version bigint,
    cancel_requested                boolean     NOT NULL DEFAULT false,
    event_cursor                    integer     NOT NULL DEFAULT 1,
    result                          jsonb,
    error_code                      text,
    error_message                   text,
    admitted_at                     timestamptz NOT NULL DEFAULT clock_timestamp(),
    started_at                      timestamptz,
    ended_at                        timestamptz,
    UNIQUE (run_id, sequence_id),
    UNIQUE (run_id, request_id)
);
CREATE INDEX native_operations_waiting ON training.native_operations (admitted_at) WHERE status = 'admitted';

CREATE TABLE training.native_checkpoints (
    checkpoint_id     text        PRIMARY KEY,
    run_id            text        NOT NULL REFERENCES training.native_runs (run_id) ON DELETE CASCADE,
    owner             text        NOT NULL,
    name              text        NOT NULL,
    learner_version   bigint      NOT NULL,
    adapter_uri       text        NOT NULL,
    first_moment_uri  text        NOT NULL,
    second_moment_uri text        NOT NULL,
    optimizer_steps   integer     NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    UNIQUE (run_id, name)
);
