-- calls/stats over a whole project read every call of the range: 35 s for 1,000,000 calls (the planner takes
-- jsonb_each for 100 rows a call and sorts on disk; the percentiles sort a million latencies). This keeps a
-- rollup per project and UTC hour of started_at (docs/tracing-service.md#call-stats-rollup), which calls/stats
-- reads for whole hours. Triggers on tracing.calls keep it, so every write path counts the same way (call
-- start/end v1 and v2, upsert_batch, calls/complete, OTel, delete, completion calls): each statement adds the
-- new state of the rows it wrote and takes away their old state, so a resend that changes nothing changes
-- nothing, and a deleted call (deleted_at set, or its row deleted) leaves the rollup.

-- Latency histogram buckets (0-based index; a PostgreSQL array holds index i at [i + 1]): one bucket per
-- millisecond below 64 ms, then 32 buckets per power of two, so a bucket is at most 1/32 of its lower bound
-- wide. Integer arithmetic only, so StatsHistogram.java finds the same bounds. Negative latencies (an end
-- before the start) are counted apart and are in no bucket.
-- The position of the highest bit set of a positive bigint: the float guess, corrected by one either way
-- (a single expression, so PostgreSQL inlines it: no function call per call written).
CREATE FUNCTION tracing.highest_bit(guess int, value bigint) RETURNS int
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN (1::bigint << guess) > value THEN guess - 1
        WHEN guess < 62 AND (1::bigint << (guess + 1)) <= value THEN guess + 1 ELSE guess END
$$;

CREATE FUNCTION tracing.latency_bucket(latency_ms bigint) RETURNS int
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN latency_ms < 64 THEN latency_ms::int
        ELSE 64 + (tracing.highest_bit(least(floor(ln(latency_ms::float8) / ln(2))::int, 62), latency_ms) - 6) * 32
            + ((latency_ms >> (tracing.highest_bit(least(floor(ln(latency_ms::float8) / ln(2))::int, 62), latency_ms) - 5))
                - 32)::int END
$$;

-- calls/stats' latency: whole milliseconds crossed from start to end (ClickHouse's dateDiff('millisecond', ...),
-- not V2's call_latency_ms, which floors the difference); null while running. STABLE as extract is, so that
-- PostgreSQL inlines it.
CREATE FUNCTION tracing.stats_latency_ms(started_at timestamptz, ended_at timestamptz) RETURNS bigint
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT (floor(extract(epoch FROM ended_at) * 1000) - floor(extract(epoch FROM started_at) * 1000))::bigint
$$;

-- A count of summary.usage as calls/stats reads it: only JSON numbers (kept as numeric, so sums are exact).
CREATE FUNCTION tracing.usage_count(usage jsonb, name text) RETURNS numeric
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN jsonb_typeof(usage -> name) = 'number' THEN (usage -> name)::numeric END
$$;

-- Histograms add element by element (a missing element is 0); PL/pgSQL assigns array elements in place.
CREATE FUNCTION tracing.histogram_plus(histogram bigint[], other bigint[]) RETURNS bigint[]
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF histogram IS NULL THEN
        RETURN other;
    END IF;
    FOR i IN 1 .. coalesce(array_length(other, 1), 0) LOOP
        histogram[i] := coalesce(histogram[i], 0) + other[i];
    END LOOP;
    RETURN histogram;
END
$$;

CREATE FUNCTION tracing.histogram_count(histogram bigint[], bucket int, n bigint) RETURNS bigint[]
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    histogram := coalesce(histogram, '{}');
    FOR i IN coalesce(array_length(histogram, 1), 0) + 1 .. bucket + 1 LOOP
        histogram[i] := 0;
    END LOOP;
    histogram[bucket + 1] := histogram[bucket + 1] + n;
    RETURN histogram;
END
$$;

-- histogram_sum(histogram): the histograms of several hours merged; histogram_of(bucket, n): one made of counts.
CREATE AGGREGATE tracing.histogram_sum(bigint[]) (SFUNC = tracing.histogram_plus, STYPE = bigint[], PARALLEL = SAFE);
CREATE AGGREGATE tracing.histogram_of(int, bigint) (SFUNC = tracing.histogram_count, STYPE = bigint[], PARALLEL = SAFE);

-- Call metrics per hour: calls, failed calls, ended calls (those with a latency), their latencies' sum,
-- negative latencies, and the histogram of the others.
CREATE TABLE tracing.call_stats_hours (
    project_id         text     NOT NULL,
    hour               bigint   NOT NULL,
    calls              bigint   NOT NULL,
    errors             bigint   NOT NULL,
    ended              bigint   NOT NULL,
    latency_sum        numeric  NOT NULL,
    negative_latencies bigint   NOT NULL,
    latency_histogram  bigint[] NOT NULL,
    PRIMARY KEY (project_id, hour)
);

-- Usage per hour and model of summary.usage: call-model pairs, and per count its sum and how many pairs state it.
CREATE TABLE tracing.usage_stats_hours (
    project_id                        text    NOT NULL,
    hour                              bigint  NOT NULL,
    model                             text    NOT NULL,
    pairs                             bigint  NOT NULL,
    input_tokens                      numeric NOT NULL,
    output_tokens                     numeric NOT NULL,
    total_tokens                      numeric NOT NULL,
    total_tokens_count                bigint  NOT NULL,
    cache_read_input_tokens           numeric NOT NULL,
    cache_read_input_tokens_count     bigint  NOT NULL,
    cache_creation_input_tokens       numeric NOT NULL,
    cache_creation_input_tokens_count bigint  NOT NULL,
    PRIMARY KEY (project_id, hour, model)
);

-- What some visible calls (sign 1) or their earlier state (sign -1) add to each hour. calls/stats reads the
-- partial first and last hours of a range through these same functions, straight from the calls.
CREATE FUNCTION tracing.call_stats_of(projects text[], started timestamptz[], ended timestamptz[], failed boolean[],
        signs int[])
    RETURNS TABLE (project_id text, hour bigint, calls bigint, errors bigint, ended bigint, latency_sum numeric,
        negative_latencies bigint, latency_histogram bigint[])
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    WITH per_call AS (
        SELECT c.project_id, floor(extract(epoch FROM c.started_at) / 3600)::bigint * 3600 AS hour, c.failed, c.sign,
            tracing.stats_latency_ms(c.started_at, c.ended_at) AS latency
        FROM unnest(projects, started, ended, failed, signs) AS c(project_id, started_at, ended_at, failed, sign)),
    per_bucket AS (
        SELECT per_call.project_id, per_call.hour, tracing.latency_bucket(latency) AS bucket, sum(sign)::bigint AS n
        FROM per_call WHERE latency >= 0 GROUP BY 1, 2, 3),
    histograms AS (
        SELECT per_bucket.project_id, per_bucket.hour, tracing.histogram_of(bucket, n ORDER BY bucket) AS histogram
        FROM per_bucket WHERE n <> 0 GROUP BY 1, 2)
    SELECT totals.project_id, totals.hour, totals.calls, totals.errors, totals.ended, totals.latency_sum,
        totals.negative_latencies, coalesce(histograms.histogram, '{}')
    FROM (SELECT per_call.project_id, per_call.hour, sum(sign)::bigint AS calls,
            coalesce(sum(sign) FILTER (WHERE failed), 0)::bigint AS errors,
            coalesce(sum(sign) FILTER (WHERE latency IS NOT NULL), 0)::bigint AS ended,
            coalesce(sum(sign * latency::numeric), 0) AS latency_sum,
            coalesce(sum(sign) FILTER (WHERE latency < 0), 0)::bigint AS negative_latencies
        FROM per_call GROUP BY 1, 2) totals
    LEFT JOIN histograms ON histograms.project_id = totals.project_id AND histograms.hour = totals.hour
    WHERE totals.calls <> 0 OR totals.errors <> 0 OR totals.ended <> 0 OR totals.latency_sum <> 0
        OR histograms.histogram IS NOT NULL
$$;

CREATE FUNCTION tracing.usage_stats_of(projects text[], started timestamptz[], usages jsonb[], signs int[])
    RETURNS TABLE (project_id text, hour bigint, model text, pairs bigint, input_tokens numeric, output_tokens numeric,
        total_tokens numeric, total_tokens_count bigint, cache_read_input_tokens numeric,
        cache_read_input_tokens_count bigint, cache_creation_input_tokens numeric,
        cache_creation_input_tokens_count bigint)
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT * FROM (
        SELECT pair.project_id, pair.hour, pair.model, sum(sign)::bigint AS pairs,
            coalesce(sum(sign * input), 0) AS input_tokens, coalesce(sum(sign * output), 0) AS output_tokens,
            coalesce(sum(sign * total), 0) AS total_tokens,
            coalesce(sum(sign) FILTER (WHERE total IS NOT NULL), 0)::bigint AS total_tokens_count,
            coalesce(sum(sign * cache_read), 0) AS cache_read_input_tokens,
            coalesce(sum(sign) FILTER (WHERE cache_read IS NOT NULL), 0)::bigint AS cache_read_input_tokens_count,
            coalesce(sum(sign * cache_creation), 0) AS cache_creation_input_tokens,
            coalesce(sum(sign) FILTER (WHERE cache_creation IS NOT NULL), 0)::bigint AS cache_creation_input_tokens_count
        FROM (SELECT c.project_id, floor(extract(epoch FROM c.started_at) / 3600)::bigint * 3600 AS hour,
                u.key AS model, c.sign,
                coalesce(tracing.usage_count(u.value, 'prompt_tokens'), 0)
                    + coalesce(tracing.usage_count(u.value, 'input_tokens'), 0) AS input,
                coalesce(tracing.usage_count(u.value, 'completion_tokens'), 0)
                    + coalesce(tracing.usage_count(u.value, 'output_tokens'), 0) AS output,
                tracing.usage_count(u.value, 'total_tokens') AS total,
                tracing.usage_count(u.value, 'cache_read_input_tokens') AS cache_read,
                tracing.usage_count(u.value, 'cache_creation_input_tokens') AS cache_creation
            FROM unnest(projects, started, usages, signs) AS c(project_id, started_at, usage, sign)
            CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(c.usage) = 'object' THEN c.usage ELSE '{}' END) u) pair
        GROUP BY 1, 2, 3) per_model
    WHERE (per_model.pairs, per_model.input_tokens, per_model.output_tokens, per_model.total_tokens,
            per_model.total_tokens_count, per_model.cache_read_input_tokens, per_model.cache_read_input_tokens_count,
            per_model.cache_creation_input_tokens, per_model.cache_creation_input_tokens_count)
        IS DISTINCT FROM (0, 0, 0, 0, 0, 0, 0, 0, 0)
$$;

-- Adds what the calls add (or take away) to the rollup. Writers of one project take its lock first (in
-- project order), so two statements never wait on each other's rows the other way round; the rows are
-- added in key order, as deltas (ON CONFLICT DO UPDATE), so concurrent statements both count.
CREATE FUNCTION tracing.call_stats_add(projects text[], started timestamptz[], ended timestamptz[], failed boolean[],
        usages jsonb[], signs int[]) RETURNS void
    LANGUAGE plpgsql AS $$
BEGIN
    IF projects IS NULL THEN
        RETURN;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtextextended('tracing.call_stats:' || project, 0))
    FROM (SELECT DISTINCT project FROM unnest(projects) project ORDER BY project) locked;
    INSERT INTO tracing.call_stats_hours AS h
    SELECT * FROM tracing.call_stats_of(projects, started, ended, failed, signs) d ORDER BY d.project_id, d.hour
    ON CONFLICT (project_id, hour) DO UPDATE SET calls = h.calls + excluded.calls, errors = h.errors + excluded.errors,
        ended = h.ended + excluded.ended, latency_sum = h.latency_sum + excluded.latency_sum,
        negative_latencies = h.negative_latencies + excluded.negative_latencies,
        latency_histogram = tracing.histogram_plus(h.latency_histogram, excluded.latency_histogram);
    INSERT INTO tracing.usage_stats_hours AS h
    SELECT * FROM tracing.usage_stats_of(projects, started, usages, signs) d ORDER BY d.project_id, d.hour, d.model
    ON CONFLICT (project_id, hour, model) DO UPDATE SET pairs = h.pairs + excluded.pairs,
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

-- One statement-level trigger per event (a transition table serves one event only). Rows not visible to
-- calls/stats (no start yet, deleted) count for nothing.
CREATE FUNCTION tracing.call_stats_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tracing.call_stats_add(array_agg(project_id), array_agg(started_at), array_agg(ended_at),
        array_agg(exception IS NOT NULL), array_agg(summary -> 'usage'), array_agg(1))
    FROM new_calls WHERE started_at IS NOT NULL AND deleted_at IS NULL;
    RETURN NULL;
END
$$;

CREATE FUNCTION tracing.call_stats_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tracing.call_stats_add(array_agg(project_id), array_agg(started_at), array_agg(ended_at),
        array_agg(failed), array_agg(usage), array_agg(sign))
    FROM (SELECT project_id, started_at, ended_at, exception IS NOT NULL AS failed, summary -> 'usage' AS usage, 1 AS sign
            FROM new_calls WHERE started_at IS NOT NULL AND deleted_at IS NULL
        UNION ALL
        SELECT project_id, started_at, ended_at, exception IS NOT NULL, summary -> 'usage', -1
            FROM old_calls WHERE started_at IS NOT NULL AND deleted_at IS NULL) changed;
    RETURN NULL;
END
$$;

CREATE FUNCTION tracing.call_stats_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tracing.call_stats_add(array_agg(project_id), array_agg(started_at), array_agg(ended_at),
        array_agg(exception IS NOT NULL), array_agg(summary -> 'usage'), array_agg(-1))
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

-- The calls already stored, a project's day at a time (the arrays of one call stay that size).
SELECT tracing.call_stats_add(array_agg(project_id), array_agg(started_at), array_agg(ended_at),
    array_agg(exception IS NOT NULL), array_agg(summary -> 'usage'), array_agg(1))
FROM tracing.calls WHERE started_at IS NOT NULL AND deleted_at IS NULL
GROUP BY project_id, floor(extract(epoch FROM started_at) / 86400);
