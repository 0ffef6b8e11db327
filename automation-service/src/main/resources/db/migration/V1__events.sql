-- The inbox of artifact events (artifact.events), one row per producer event id: a redelivered
-- record hits the primary key and is dropped (INSERT ... ON CONFLICT DO NOTHING). The automation
-- matcher and the event history read it.
CREATE TABLE automation.events (
    event_id    text        PRIMARY KEY,
    event_type  text        NOT NULL,
    entity      text        NOT NULL,
    project     text        NOT NULL,
    collection  text        NOT NULL,
    version     text,
    aliases     text[]      NOT NULL DEFAULT '{}',
    tags        text[]      NOT NULL DEFAULT '{}',
    author      text,
    metadata    jsonb       NOT NULL DEFAULT '{}',
    occurred_at timestamptz NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now()
);

-- "Events of entity X (in project P), newest first", paged by (occurred_at, event_id).
CREATE INDEX events_entity_newest ON automation.events (entity, occurred_at DESC, event_id DESC);
CREATE INDEX events_project_newest ON automation.events (entity, project, occurred_at DESC, event_id DESC);
