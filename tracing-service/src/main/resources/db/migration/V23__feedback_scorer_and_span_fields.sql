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

-- include_feedback rows carry the scorer columns too, as the reference's calls hydration asks for them
-- (FEEDBACK_QUERY_FIELDS); the span columns stay out, as there.
CREATE OR REPLACE FUNCTION tracing.call_feedback(call_project text, call_id text) RETURNS jsonb
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(jsonb_agg(jsonb_build_object(
            'id', f.id, 'feedback_type', f.feedback_type, 'weave_ref', f.weave_ref, 'payload', f.payload,
            'creator', f.creator, 'created_at', tracing.iso_utc(f.created_at), 'svc_user_id', f.svc_user_id,
            'runnable_ref', f.runnable_ref, 'call_ref', f.call_ref, 'trigger_ref', f.trigger_ref,
            'annotation_ref', f.annotation_ref, 'scorer_tags', to_jsonb(f.scorer_tags),
            'scorer_tag_reasons', f.scorer_tag_reasons, 'scorer_tag_confidences', f.scorer_tag_confidences,
            'scorer_ratings', f.scorer_ratings, 'scorer_rating_reasons', f.scorer_rating_reasons,
            'scorer_rating_confidences', f.scorer_rating_confidences) ORDER BY f.created_at, f.id), '[]'::jsonb)
    FROM tracing.feedback f
    WHERE f.project_id = call_project AND f.weave_ref = 'weave:///' || call_project || '/call/' || call_id
$$;
