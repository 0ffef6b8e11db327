-- The calls query language (spec section 5) compiles to SQL over these helpers. They are IMMUTABLE
-- SQL functions, so the planner inlines them and they may appear in index expressions.

-- ClickHouse's JSON_VALUE: a scalar's text ('5', 'true', 'hello', 'null'), '' when the path is
-- missing or names an object or an array. A path step that is an integer indexes an array.
CREATE FUNCTION tracing.json_value(document jsonb, path text[]) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE jsonb_typeof(document #> path)
        WHEN 'object' THEN ''
        WHEN 'array' THEN ''
        WHEN 'null' THEN 'null'
        ELSE coalesce(document #>> path, '') END
$$;

-- "The value is present and not JSON null" ($convert to exists, the existence key of a sort).
CREATE FUNCTION tracing.json_exists(document jsonb, path text[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(jsonb_typeof(document #> path) <> 'null', false)
$$;

-- Parse-or-null casts, like ClickHouse's toInt64OrNull / toFloat64OrNull / toBoolOrNull.
CREATE FUNCTION tracing.to_bigint(value text) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN value ~ '^\s*[-+]?[0-9]{1,18}\s*$' THEN trim(value)::bigint END
$$;

CREATE FUNCTION tracing.to_double(value text) RETURNS double precision
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN value ~ '^\s*[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]{1,3})?\s*$'
        THEN trim(value)::double precision END
$$;

CREATE FUNCTION tracing.to_bool(value text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE lower(trim(value)) WHEN 'true' THEN true WHEN '1' THEN true
        WHEN 'false' THEN false WHEN '0' THEN false END
$$;

-- The computed summary.weave fields (spec section 11), so filters and sorts use the read-time rules.
CREATE FUNCTION tracing.call_status(exception text, ended_at timestamptz, summary jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN exception IS NOT NULL THEN 'error'
        WHEN ended_at IS NULL THEN 'running'
        WHEN jsonb_typeof(summary #> '{status_counts,error}') = 'number'
            AND (summary #>> '{status_counts,error}')::numeric > 0 THEN 'descendant_error'
        ELSE 'success' END
$$;

CREATE FUNCTION tracing.call_latency_ms(started_at timestamptz, ended_at timestamptz) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT floor(extract(epoch FROM (ended_at - started_at)) * 1000)::bigint
$$;

CREATE FUNCTION tracing.call_trace_name(display_name text, op_name text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(nullif(display_name, ''),
        CASE WHEN op_name LIKE 'weave:///%'
            THEN substring(op_name FROM '^weave:///[^/]+/[^/]+/(?:object|op)/([^/:]+):')
            ELSE op_name END)
$$;

-- The common filters: op names (exact and "name:*" prefixes), parents (roots, delete cascades),
-- threads, and the refs found in inputs and outputs.
CREATE INDEX calls_visible_by_op ON tracing.calls (project_id, op_name text_pattern_ops, started_at)
    WHERE started_at IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX calls_roots_by_start ON tracing.calls (project_id, started_at, id)
    WHERE started_at IS NOT NULL AND deleted_at IS NULL AND parent_id IS NULL;
CREATE INDEX calls_by_parent ON tracing.calls (project_id, parent_id);
CREATE INDEX calls_by_thread ON tracing.calls (project_id, thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX calls_input_refs ON tracing.calls USING gin (input_refs);
CREATE INDEX calls_output_refs ON tracing.calls USING gin (output_refs);
