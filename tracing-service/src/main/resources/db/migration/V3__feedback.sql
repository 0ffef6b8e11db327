-- Feedback on calls and other objects (spec section 12.1). A call's feedback has
-- weave_ref = 'weave:///<project_id>/call/<call id>'; the index serves include_feedback and the
-- feedback.[type] paths of calls queries.
CREATE TABLE tracing.feedback (
    project_id    text        NOT NULL,
    id            text        NOT NULL,
    weave_ref     text        NOT NULL,
    svc_user_id   text        NOT NULL,
    creator       text,
    created_at    timestamptz NOT NULL,
    feedback_type text        NOT NULL,
    payload       jsonb       NOT NULL,
    annotation_ref text,
    runnable_ref  text,
    call_ref      text,
    trigger_ref   text,
    PRIMARY KEY (project_id, id)
);

CREATE INDEX feedback_by_ref ON tracing.feedback (project_id, weave_ref, feedback_type, created_at);

-- Datetimes as the API prints them: UTC with Z, microseconds only when not zero.
CREATE FUNCTION tracing.iso_utc(instant timestamptz) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN date_trunc('second', instant) = instant
        THEN to_char(instant AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
        ELSE to_char(instant AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END
$$;

-- A call's feedback rows as include_feedback returns them, oldest first.
CREATE FUNCTION tracing.call_feedback(call_project text, call_id text) RETURNS jsonb
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(jsonb_agg(jsonb_build_object(
            'id', f.id, 'feedback_type', f.feedback_type, 'weave_ref', f.weave_ref, 'payload', f.payload,
            'creator', f.creator, 'created_at', tracing.iso_utc(f.created_at), 'svc_user_id', f.svc_user_id,
            'runnable_ref', f.runnable_ref, 'call_ref', f.call_ref, 'trigger_ref', f.trigger_ref,
            'annotation_ref', f.annotation_ref) ORDER BY f.created_at, f.id), '[]'::jsonb)
    FROM tracing.feedback f
    WHERE f.project_id = call_project AND f.weave_ref = 'weave:///' || call_project || '/call/' || call_id
$$;
