-- The typed scorer columns and the agent-span columns of Weave's feedback table
-- (docs/tracing-service.md#feedback): not null, with the reference's empty defaults, so existing rows need no
-- backfill. ClickHouse's Array(String) is text[], its Map(String, String) / Map(String, Float64) a jsonb object, its
-- Enum8('UNSET', 'OK', 'ERROR') a text checked against those three.
ALTER TABLE tracing.feedback
    ADD COLUMN scorer_tags               text[] NOT NULL DEFAULT '{}',
    ADD COLUMN scorer_tag_reasons        jsonb  NOT NULL DEFAULT '{}',
    ADD COLUMN scorer_tag_confidences    jsonb  NOT NULL DEFAULT '{}',
    ADD COLUMN scorer_ratings            jsonb  NOT NULL DEFAULT '{}',
    ADD COLUMN scorer_rating_reasons     jsonb  NOT NULL DEFAULT '{}',
    ADD COLUMN scorer_rating_confidences jsonb  NOT NULL DEFAULT '{}',
    ADD COLUMN span_agent_name           text   NOT NULL DEFAULT '',
    ADD COLUMN span_agent_version        text   NOT NULL DEFAULT '',
    ADD COLUMN span_status_code          text   NOT NULL DEFAULT 'UNSET'
        CHECK (span_status_code IN ('UNSET', 'OK', 'ERROR')),
    ADD COLUMN span_conversation_id      text   NOT NULL DEFAULT '',
    ADD COLUMN span_trace_id             text   NOT NULL DEFAULT '',
    ADD COLUMN scorer_trace_id           text   NOT NULL DEFAULT '';
