-- threads/stream_query grouped every turn of the project to answer its first 50 threads: 7.5 s at a million calls
-- (tracing-service/README.md, bench/scale.sh). This keeps each thread's count, first start and last end
-- (docs/tracing-service.md#thread-summaries), which the threads list sorts and pages instead; the page's 50 threads
-- then read their turns by the covering index below for the first and last turn and the latency quantiles.

-- A thread's turns as the threads list counts them (visible, started, id = turn_id, in a thread).
CREATE INDEX calls_turns_by_thread ON tracing.calls (project_id, thread_id) INCLUDE (id, started_at, ended_at)
    WHERE id = turn_id AND thread_id <> '' AND started_at IS NOT NULL AND deleted_at IS NULL;

CREATE TABLE tracing.thread_summaries (
    project_id   text        NOT NULL,
    thread_id    text        NOT NULL,
    turn_count   bigint      NOT NULL,
    start_time   timestamptz NOT NULL,
    last_updated timestamptz,
    PRIMARY KEY (project_id, thread_id)
);
CREATE INDEX thread_summaries_by_last_updated ON tracing.thread_summaries (project_id, last_updated DESC, thread_id);

-- Turns added by an insert only widen their thread, as deltas. Any other change (an end written later, a thread or
-- turn id set later, a delete) counts the changed threads again from their turns, after the project's lock, so the
-- count reads every turn committed before it. The lock is the call-stats rollup's (V22): the rollup's trigger has
-- already taken it in the same statement, so writers of a project wait on one lock, in one order.
CREATE FUNCTION tracing.thread_summaries_lock(projects text[]) RETURNS void
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('tracing.call_stats:' || project, 0))
    FROM (SELECT DISTINCT project FROM unnest(projects) project ORDER BY project) locked;
END
$$;

CREATE FUNCTION tracing.thread_summaries_recount(projects text[], threads text[]) RETURNS void
    LANGUAGE plpgsql AS $$
BEGIN
    IF projects IS NULL THEN
        RETURN;
    END IF;
    PERFORM tracing.thread_summaries_lock(projects);
    DELETE FROM tracing.thread_summaries s
    USING unnest(projects, threads) changed(project_id, thread_id)
    WHERE s.project_id = changed.project_id AND s.thread_id = changed.thread_id;
    INSERT INTO tracing.thread_summaries (project_id, thread_id, turn_count, start_time, last_updated)
    SELECT c.project_id, c.thread_id, count(*), min(c.started_at), max(c.ended_at)
    FROM (SELECT DISTINCT project_id, thread_id FROM unnest(projects, threads) t(project_id, thread_id)) changed
    JOIN tracing.calls c ON c.project_id = changed.project_id AND c.thread_id = changed.thread_id
        AND c.id = c.turn_id AND c.thread_id <> '' AND c.started_at IS NOT NULL AND c.deleted_at IS NULL
    GROUP BY c.project_id, c.thread_id
    ORDER BY c.project_id, c.thread_id;
END
$$;

CREATE FUNCTION tracing.thread_summaries_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tracing.thread_summaries_lock(array_agg(project_id)) FROM new_calls
    WHERE id = turn_id AND thread_id <> '' AND started_at IS NOT NULL AND deleted_at IS NULL;
    INSERT INTO tracing.thread_summaries AS s (project_id, thread_id, turn_count, start_time, last_updated)
    SELECT project_id, thread_id, count(*), min(started_at), max(ended_at)
    FROM new_calls
    WHERE id = turn_id AND thread_id <> '' AND started_at IS NOT NULL AND deleted_at IS NULL
    GROUP BY project_id, thread_id
    ORDER BY project_id, thread_id
    ON CONFLICT (project_id, thread_id) DO UPDATE SET turn_count = s.turn_count + excluded.turn_count,
        start_time = least(s.start_time, excluded.start_time),
        last_updated = greatest(s.last_updated, excluded.last_updated);
    RETURN NULL;
END
$$;

CREATE FUNCTION tracing.thread_summaries_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tracing.thread_summaries_recount(array_agg(project_id), array_agg(thread_id))
    FROM (SELECT project_id, thread_id FROM new_calls
            WHERE id = turn_id AND thread_id <> '' AND started_at IS NOT NULL AND deleted_at IS NULL
        UNION
        SELECT project_id, thread_id FROM old_calls
            WHERE id = turn_id AND thread_id <> '' AND started_at IS NOT NULL AND deleted_at IS NULL) changed;
    RETURN NULL;
END
$$;

CREATE FUNCTION tracing.thread_summaries_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tracing.thread_summaries_recount(array_agg(project_id), array_agg(thread_id))
    FROM (SELECT DISTINCT project_id, thread_id FROM old_calls
            WHERE id = turn_id AND thread_id <> '' AND started_at IS NOT NULL AND deleted_at IS NULL) changed;
    RETURN NULL;
END
$$;

-- Named after call_stats_*: PostgreSQL fires a statement's triggers in name order, so the rollup's lock comes first.
CREATE TRIGGER thread_summaries_after_insert AFTER INSERT ON tracing.calls
    REFERENCING NEW TABLE AS new_calls FOR EACH STATEMENT EXECUTE FUNCTION tracing.thread_summaries_after_insert();
CREATE TRIGGER thread_summaries_after_update AFTER UPDATE ON tracing.calls
    REFERENCING OLD TABLE AS old_calls NEW TABLE AS new_calls FOR EACH STATEMENT
    EXECUTE FUNCTION tracing.thread_summaries_after_update();
CREATE TRIGGER thread_summaries_after_delete AFTER DELETE ON tracing.calls
    REFERENCING OLD TABLE AS old_calls FOR EACH STATEMENT EXECUTE FUNCTION tracing.thread_summaries_after_delete();

-- The threads already stored.
INSERT INTO tracing.thread_summaries (project_id, thread_id, turn_count, start_time, last_updated)
SELECT project_id, thread_id, count(*), min(started_at), max(ended_at)
FROM tracing.calls
WHERE id = turn_id AND thread_id <> '' AND started_at IS NOT NULL AND deleted_at IS NULL
GROUP BY project_id, thread_id;
