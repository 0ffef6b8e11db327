-- Annotation queues (docs/tracing-service.md#annotation-queues): a queue names calls for people to annotate, and
-- each annotator's progress on an item is a row of its own. Deletion is soft, as the reference's: deleted_at.
CREATE TABLE tracing.annotation_queues (
    project_id  text        NOT NULL,
    id          text        NOT NULL,
    name        text        NOT NULL,
    description text        NOT NULL DEFAULT '',
    scorer_refs text[]      NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL,
    created_by  text        NOT NULL,
    updated_at  timestamptz NOT NULL,
    deleted_at  timestamptz,
    PRIMARY KEY (project_id, id)
);

CREATE INDEX annotation_queues_live ON tracing.annotation_queues (project_id, created_at) WHERE deleted_at IS NULL;

-- The call's start, end, op name and trace are copied in when it is added, so listing a queue reads no call.
CREATE TABLE tracing.annotation_queue_items (
    project_id      text        NOT NULL,
    id              text        NOT NULL,
    queue_id        text        NOT NULL,
    call_id         text        NOT NULL,
    call_started_at timestamptz NOT NULL,
    call_ended_at   timestamptz,
    call_op_name    text        NOT NULL,
    call_trace_id   text        NOT NULL,
    display_fields  text[]      NOT NULL DEFAULT '{}',
    added_by        text,
    created_at      timestamptz NOT NULL,
    created_by      text        NOT NULL,
    updated_at      timestamptz NOT NULL,
    deleted_at      timestamptz,
    PRIMARY KEY (project_id, id)
);

-- A call is in a queue at most once: two concurrent adds of the same call count it once.
CREATE UNIQUE INDEX annotation_queue_items_call ON tracing.annotation_queue_items (project_id, queue_id, call_id)
    WHERE deleted_at IS NULL;

-- One row per (item, annotator); the item's state is that of its most recently updated row.
CREATE TABLE tracing.annotator_queue_items_progress (
    project_id       text        NOT NULL,
    id               text        NOT NULL,
    queue_item_id    text        NOT NULL,
    queue_id         text        NOT NULL,
    annotator_id     text        NOT NULL,
    annotation_state text        NOT NULL CHECK (annotation_state IN ('in_progress', 'completed', 'skipped')),
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    deleted_at       timestamptz,
    PRIMARY KEY (project_id, id)
);

CREATE UNIQUE INDEX annotator_queue_items_progress_annotator
    ON tracing.annotator_queue_items_progress (project_id, queue_item_id, annotator_id) WHERE deleted_at IS NULL;
CREATE INDEX annotator_queue_items_progress_queue
    ON tracing.annotator_queue_items_progress (project_id, queue_id) WHERE deleted_at IS NULL;

-- The queue a feedback was given through (FeedbackCreateReq.queue_id); null outside queues.
ALTER TABLE tracing.feedback ADD COLUMN queue_id text;
