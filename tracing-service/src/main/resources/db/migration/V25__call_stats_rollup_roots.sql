-- The dashboard asks calls/stats for a project's traces (filter trace_roots_only): the rollup of V22 counted every call
-- together, so that request scanned the range's roots (1.7 s over 30 days of a 1,000,000-call project). Each rollup row
-- now also says whether it counts trace roots (calls without a parent) or the other calls; a request for every call
-- sums both, one for the roots reads the root rows (docs/tracing-service.md#call-stats-rollup).

DROP TRIGGER call_stats_after_insert ON tracing.calls;
DROP TRIGGER call_stats_after_update ON tracing.calls;
DROP TRIGGER call_stats_after_delete ON tracing.calls;
DROP FUNCTION tracing.call_stats_after_insert();
DROP FUNCTION tracing.call_stats_after_update();
DROP FUNCTION tracing.call_stats_after_delete();
DROP FUNCTION tracing.call_stats_add(text[], timestamptz[], timestamptz[], boolean[], jsonb[], int[]);
DROP FUNCTION tracing.call_stats_of(text[], timestamptz[], timestamptz[], boolean[], int[]);
DROP FUNCTION tracing.usage_stats_of(text[], timestamptz[], jsonb[], int[]);

-- Counted again below, root rows apart.
TRUNCATE tracing.call_stats_hours, tracing.usage_stats_hours;
ALTER TABLE tracing.call_stats_hours ADD COLUMN root boolean NOT NULL;
ALTER TABLE tracing.call_stats_hours DROP CONSTRAINT call_stats_hours_pkey;
ALTER TABLE tracing.call_stats_hours ADD PRIMARY KEY (project_id, hour, root);
ALTER TABLE tracing.usage_stats_hours ADD COLUMN root boolean NOT NULL;
ALTER TABLE tracing.usage_stats_hours DROP CONSTRAINT usage_stats_hours_pkey;
ALTER TABLE tracing.usage_stats_hours ADD PRIMARY KEY (project_id, hour, model, root);

CREATE FUNCTION tracing.call_stats_of(projects text[], started timestamptz[], ended timestamptz[], failed boolean[],
        roots boolean[], signs int[])
    RETURNS TABLE (project_id text, hour bigint, root boolean, calls bigint, errors bigint, ended bigint,
        latency_sum numeric, negative_latencies bigint, latency_histogram bigint[])
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    WITH per_call AS (
        SELECT c.project_id, floor(extract(epoch FROM c.started_at) / 3600)::bigint * 3600 AS hour, c.root, c.failed,
            c.sign, tracing.stats_latency_ms(c.started_at, c.ended_at) AS latency
        FROM unnest(projects, started, ended, failed, roots, signs) AS c(project_id, started_at, ended_at, failed, root, sign)),
    per_bucket AS (
        SELECT per_call.project_id, per_call.hour, per_call.root, tracing.latency_bucket(latency) AS bucket,
            sum(sign)::bigint AS n
        FROM per_call WHERE latency >= 0 GROUP BY 1, 2, 3, 4),
    histograms AS (
        SELECT per_bucket.project_id, per_bucket.hour, per_bucket.root,
            tracing.histogram_of(bucket, n ORDER BY bucket) AS histogram
        FROM per_bucket WHERE n <> 0 GROUP BY 1, 2, 3)
    SELECT totals.project_id, totals.hour, totals.root, totals.calls, totals.errors, totals.ended, totals.latency_sum,
        totals.negative_latencies, coalesce(histograms.histogram, '{}')
    FROM (SELECT per_call.project_id, per_call.hour, per_call.root, sum(sign)::bigint AS calls,
            coalesce(sum(sign) FILTER (WHERE failed), 0)::bigint AS errors,
            coalesce(sum(sign) FILTER (WHERE latency IS NOT NULL), 0)::bigint AS ended,
            coalesce(sum(sign * latency::numeric), 0) AS latency_sum,
            coalesce(sum(sign) FILTER (WHERE latency < 0), 0)::bigint AS negative_latencies
        FROM per_call GROUP BY 1, 2, 3) totals
    LEFT JOIN histograms ON histograms.project_id = totals.project_id AND histograms.hour = totals.hour
        AND histograms.root = totals.root
    WHERE totals.calls <> 0 OR totals.errors <> 0 OR totals.ended <> 0 OR totals.latency_sum <> 0
        OR histograms.histogram IS NOT NULL
$$;

CREATE FUNCTION tracing.usage_stats_of(projects text[], started timestamptz[], usages jsonb[], roots boolean[],
        signs int[])
    RETURNS TABLE (project_id text, hour bigint, model text, root boolean, pairs bigint, input_tokens numeric,
        output_tokens numeric, total_tokens numeric, total_tokens_count bigint, cache_read_input_tokens numeric,
        cache_read_input_tokens_count bigint, cache_creation_input_tokens numeric,
        cache_creation_input_tokens_count bigint)
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT * FROM (
        SELECT pair.project_id, pair.hour, pair.model, pair.root, sum(sign)::bigint AS pairs,
            coalesce(sum(sign * input), 0) AS input_tokens, coalesce(sum(sign * output), 0) AS output_tokens,
            coalesce(sum(sign * total), 0) AS total_tokens,
            coalesce(sum(sign) FILTER (WHERE total IS NOT NULL), 0)::bigint AS total_tokens_count,
            coalesce(sum(sign * cache_read), 0) AS cache_read_input_tokens,
            coalesce(sum(sign) FILTER (WHERE cache_read IS NOT NULL), 0)::bigint AS cache_read_input_tokens_count,
            coalesce(sum(sign * cache_creation), 0) AS cache_creation_input_tokens,
            coalesce(sum(sign) FILTER (WHERE cache_creation IS NOT NULL), 0)::bigint AS cache_creation_input_tokens_count
        FROM (SELECT c.project_id, floor(extract(epoch FROM c.started_at) / 3600)::bigint * 3600 AS hour,
                u.key AS model, c.root, c.sign,
                coalesce(tracing.usage_count(u.value, 'prompt_tokens'), 0)
                    + coalesce(tracing.usage_count(u.value, 'input_tokens'), 0) AS input,
                coalesce(tracing.usage_count(u.value, 'completion_tokens'), 0)
                    + coalesce(tracing.usage_count(u.value, 'output_tokens'), 0) AS output,
                tracing.usage_count(u.value, 'total_tokens') AS total,
                tracing.usage_count(u.value, 'cache_read_input_tokens') AS cache_read,
                tracing.usage_count(u.value, 'cache_creation_input_tokens') AS cache_creation
            FROM unnest(projects, started, usages, roots, signs) AS c(project_id, started_at, usage, root, sign)
            CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(c.usage) = 'object' THEN c.usage ELSE '{}' END) u) pair
        GROUP BY 1, 2, 3, 4) per_model
    WHERE (per_model.pairs, per_model.input_tokens, per_model.output_tokens, per_model.total_tokens,
            per_model.total_tokens_count, per_model.cache_read_input_tokens, per_model.cache_read_input_tokens_count,
            per_model.cache_creation_input_tokens, per_model.cache_creation_input_tokens_count)
        IS DISTINCT FROM (0, 0, 0, 0, 0, 0, 0, 0, 0)
$$;

-- As V22's: one project's lock at a time, in project order; rows added in key order, as deltas.
CREATE FUNCTION tracing.call_stats_add(projects text[], started timestamptz[], ended timestamptz[], failed boolean[],
        usages jsonb[], roots boolean[], signs int[]) RETURNS void
    LANGUAGE plpgsql AS $$
BEGIN
    IF projects IS NULL THEN
        RETURN;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtextextended('tracing.call_stats:' || project, 0))
    FROM (SELECT DISTINCT project FROM unnest(projects) project ORDER BY project) locked;
    INSERT INTO tracing.call_stats_hours AS h (project_id, hour, root, calls, errors, ended, latency_sum,
        negative_latencies, latency_histogram)
    SELECT * FROM tracing.call_stats_of(projects, started, ended, failed, roots, signs) d
    ORDER BY d.project_id, d.hour, d.root
    ON CONFLICT (project_id, hour, root) DO UPDATE SET calls = h.calls + excluded.calls,
        errors = h.errors + excluded.errors, ended = h.ended + excluded.ended,
        latency_sum = h.latency_sum + excluded.latency_sum,
        negative_latencies = h.negative_latencies + excluded.negative_latencies,
        latency_histogram = tracing.histogram_plus(h.latency_histogram, excluded.latency_histogram);
    INSERT INTO tracing.usage_stats_hours AS h (project_id, hour, model, root, pairs, input_tokens, output_tokens,
        total_tokens, total_tokens_count, cache_read_input_tokens, cache_read_input_tokens_count,
        cache_creation_input_tokens, cache_creation_input_tokens_count)
    SELECT * FROM tracing.usage_stats_of(projects, started, usages, roots, signs) d
    ORDER BY d.project_id, d.hour, d.model, d.root
    ON CONFLICT (project_id, hour, model, root) DO UPDATE SET pairs = h.pairs + excluded.pairs,
        input_tokens = h.input_tokens + excluded.input_tokens, output_tokens = h.output_tokens + excluded.output_tokens,
        total_tokens = h.total_tokens + excluded.total_tokens,
        total_tokens_count = h.total_tokens_count + excluded.total_tokens_count,
        cache_read_input_tokens = h.cache_read_input_tokens + excluded.cache_read_input_tokens,
        cache_read_input_tokens_count = h.cache_read_input_tokens_count + excluded.cache_read_input_tokens_count,
        cache_creation_input_tokens = h.cache_creation_input_tokens + excluded.cache_creation_input_tokens,
        cache_creation_input_tokens_count = h.cache_creation_input_tokens_count
            + excluded.cache_creation_input_tokens_count;
END
$$;

CREATE FUNCTION tracing.call_stats_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tracing.call_stats_add(array_agg(project_id), array_agg(started_at), array_agg(ended_at),
        array_agg(exception IS NOT NULL), array_agg(summary -> 'usage'), array_agg(parent_id IS NULL), array_agg(1))
    FROM new_calls WHERE started_at IS NOT NULL AND deleted_at IS NULL;
    RETURN NULL;
END
$$;

CREATE FUNCTION tracing.call_stats_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tracing.call_stats_add(array_agg(project_id), array_agg(started_at), array_agg(ended_at),
        array_agg(failed), array_agg(usage), array_agg(root), array_agg(sign))
    FROM (SELECT project_id, started_at, ended_at, exception IS NOT NULL AS failed, summary -> 'usage' AS usage,
                parent_id IS NULL AS root, 1 AS sign
            FROM new_calls WHERE started_at IS NOT NULL AND deleted_at IS NULL
        UNION ALL
        SELECT project_id, started_at, ended_at, exception IS NOT NULL, summary -> 'usage', parent_id IS NULL, -1
            FROM old_calls WHERE started_at IS NOT NULL AND deleted_at IS NULL) changed;
    RETURN NULL;
END
$$;

CREATE FUNCTION tracing.call_stats_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tracing.call_stats_add(array_agg(project_id), array_agg(started_at), array_agg(ended_at),
        array_agg(exception IS NOT NULL), array_agg(summary -> 'usage'), array_agg(parent_id IS NULL), array_agg(-1))
    FROM old_calls WHERE started_at IS NOT NULL AND deleted_at IS NULL;
    RETURN NULL;
END
$$;

CREATE TRIGGER call_stats_after_insert AFTER INSERT ON tracing.calls
    REFERENCING NEW TABLE AS new_calls FOR EACH STATEMENT EXECUTE FUNCTION tracing.call_stats_after_insert();
CREATE TRIGGER call_stats_after_update AFTER UPDATE ON tracing.calls
    REFERENCING OLD TABLE AS old_calls NEW TABLE AS new_calls FOR EACH STATEMENT
    EXECUTE FUNCTION tracing.call_stats_after_update();
CREATE TRIGGER call_stats_after_delete AFTER DELETE ON tracing.calls
    REFERENCING OLD TABLE AS old_calls FOR EACH STATEMENT EXECUTE FUNCTION tracing.call_stats_after_delete();

-- The calls already stored, a project's day at a time.
SELECT tracing.call_stats_add(array_agg(project_id), array_agg(started_at), array_agg(ended_at),
    array_agg(exception IS NOT NULL), array_agg(summary -> 'usage'), array_agg(parent_id IS NULL), array_agg(1))
FROM tracing.calls WHERE started_at IS NOT NULL AND deleted_at IS NULL
GROUP BY project_id, floor(extract(epoch FROM started_at) / 86400);
