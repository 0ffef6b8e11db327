-- expand_columns of calls queries (spec section 4.8): filters and sorts on a path below an expanded
-- column see what the returned call shows there. A value that is an object or op ref of the call's own
-- project (weave:///<entity>/<project>/object|op/<name>:<digest>, no extra path) becomes the value of
-- that live version, with "_ref" (the ref) added to an object that has none. Anything else stays as it
-- is, so a path below it reads as missing: other strings, refs to tables, calls or other projects, and
-- unknown or deleted versions.
CREATE FUNCTION tracing.expand_ref(call_project text, value jsonb) RETURNS jsonb
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce((
        SELECT CASE WHEN jsonb_typeof(found.val) = 'object' AND found.val -> '_ref' IS NULL
            THEN found.val || jsonb_build_object('_ref', value) ELSE found.val END
        FROM regexp_match(value #>> '{}', '^weave:///([^/]+/[^/]+)/(?:object|op)/([^/:]+):([^/:]+)$') AS ref
        CROSS JOIN LATERAL (
            SELECT o.val_dump::jsonb AS val FROM tracing.objects o
            WHERE o.project_id = call_project AND ref[1] = call_project AND o.digest = ref[3]
                AND o.object_id = ref[2] AND o.deleted_at IS NULL
            LIMIT 1) found
        WHERE jsonb_typeof(value) = 'string'), value)
$$;
