-- One row per call, keyed by (project_id, id). Start and end parts (and later updates and deletes)
-- are UPSERTs into this row that only fill columns still NULL, so the parts may arrive in any order
-- and be repeated; see the spec, section 4.1. A row without started_at is an orphan end: stored, but
-- never read (every read filters "started_at IS NOT NULL AND deleted_at IS NULL").
CREATE TABLE tracing.calls (
    project_id              text        NOT NULL,
    id                      text        NOT NULL,
    trace_id                text,
    parent_id               text,
    thread_id               text,
    turn_id                 text,
    op_name                 text,
    -- Last write wins (not first), so a rename or a clear ('' reads back as null) replaces it.
    display_name            text,
    display_name_written_at timestamptz,
    started_at              timestamptz,
    ended_at                timestamptz,
    attributes              jsonb,
    inputs                  jsonb,
    output                  jsonb,
    summary                 jsonb,
    exception               text,
    -- Every weave ref string found anywhere in inputs / output, for the input_refs/output_refs filters.
    input_refs              text[]      NOT NULL DEFAULT '{}',
    output_refs             text[]      NOT NULL DEFAULT '{}',
    -- The owner: taken from the authenticated principal of the start part only.
    svc_user_id             text,
    svc_run_id              text,
    svc_run_step            bigint,
    svc_run_step_end        bigint,
    otel_dump               jsonb,
    deleted_at              timestamptz,
    expire_at               timestamptz,
    storage_size_bytes      bigint GENERATED ALWAYS AS (
        coalesce(octet_length(attributes::text), 0) + coalesce(octet_length(inputs::text), 0)
        + coalesce(octet_length(output::text), 0) + coalesce(octet_length(summary::text), 0)) STORED,
    created_at              timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, id)
);

-- Project-scoped listing in the default order (started_at, id) over visible calls only.
CREATE INDEX calls_visible_by_start ON tracing.calls (project_id, started_at, id)
    WHERE started_at IS NOT NULL AND deleted_at IS NULL;

-- Whole-trace reads: total storage size of a trace, the descendant scan of a delete cascade.
CREATE INDEX calls_by_trace ON tracing.calls (project_id, trace_id);
