-- V16's trigram indexes on every call's inputs and output text were five sixths of PostgreSQL's work on ingest
-- (tracing-service/README.md, bench/scale.sh: 310 µs of PostgreSQL CPU a call with them, 53 without); most of it
-- is pg_trgm cutting kilobytes of text into trigrams, word by word, again for each call. A search
-- (docs/tracing-service.md#searching-inputs-and-outputs) now finds its candidates through the words of a trace
-- instead: a row per trace and writing statement holds the distinct words of the inputs and outputs it wrote, which
-- the service cuts from the JSON it already holds, and one trigram index covers those rows. The calls of a trace
-- repeat their words (a conversation sent again with each model call), so the index is read from far less text.
-- A call whose JSON text holds a substring holds each word of the substring, whole or in part, and so does its
-- trace's row: the search then checks the candidate traces' calls against the substring itself.

CREATE TABLE tracing.call_search_terms (
    project_id text NOT NULL,
    trace_id   text NOT NULL,
    -- the latest start of the calls whose words the row holds (null: none had started): the retention deletes the
    -- row once every one of them is older than the project keeps calls
    started_at timestamptz,
    terms      text NOT NULL
);
CREATE INDEX call_search_terms_text ON tracing.call_search_terms USING gin (terms gin_trgm_ops);
CREATE INDEX call_search_terms_by_start ON tracing.call_search_terms (project_id, started_at);

-- Whether a trace's words hold a LIKE pattern (ILIKE), as the search asks beside the same ILIKE, which its trigram index
-- serves. The planner prices an ILIKE as a comparison of a few bytes, so with a few thousand candidate rows it read
-- the whole table instead (107 ms for 25,000 traces, 4 µs a row of about 600 characters, where the index took 4 ms);
-- this states what reading a row's words costs, and is evaluated only on the rows the index gives.
CREATE FUNCTION tracing.search_terms_hold(terms text, pattern text) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$
BEGIN
    RETURN terms ILIKE pattern;
END
$$;

-- The words PostgreSQL cuts itself, for an end written before its start and for calls written by SQL (below): the
-- JSON text's space-separated pieces. Each holds the words the service would cut from it (jsonb's text has no other
-- whitespace: it escapes newlines and tabs inside strings), so it serves the same search.
CREATE FUNCTION tracing.search_pieces(document text) RETURNS SETOF text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT DISTINCT piece FROM string_to_table(document, ' ') piece WHERE char_length(piece) >= 3
$$;

-- An end written before its start has no trace yet, so the service could not file its words: they are filed when the
-- start sets the call's trace.
CREATE FUNCTION tracing.call_search_terms_on_trace_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tracing.call_search_terms (project_id, trace_id, started_at, terms)
    SELECT n.project_id, n.trace_id, max(n.started_at), string_agg(piece, ' ')
    FROM new_calls n
    JOIN old_calls o ON o.project_id = n.project_id AND o.id = n.id
    CROSS JOIN LATERAL tracing.search_pieces(n.output::text) piece
    WHERE o.trace_id IS NULL AND n.trace_id IS NOT NULL
    GROUP BY n.project_id, n.trace_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER call_search_terms_on_trace_set AFTER UPDATE ON tracing.calls
    REFERENCING OLD TABLE AS old_calls NEW TABLE AS new_calls FOR EACH STATEMENT
    EXECUTE FUNCTION tracing.call_search_terms_on_trace_set();

-- Files the words of the calls of one project, a row per trace, for calls written into the table by SQL rather than
-- by the service (benchmarks, tests).
CREATE FUNCTION tracing.file_search_terms_of_stored_calls(project text) RETURNS void
    LANGUAGE sql AS $$
    INSERT INTO tracing.call_search_terms (project_id, trace_id, started_at, terms)
    SELECT c.project_id, c.trace_id, max(c.started_at), string_agg(DISTINCT piece, ' ')
    FROM tracing.calls c
    CROSS JOIN LATERAL (SELECT tracing.search_pieces(c.inputs::text)
        UNION ALL SELECT tracing.search_pieces(c.output::text)) pieces(piece)
    WHERE c.trace_id IS NOT NULL AND c.project_id = project
    GROUP BY c.project_id, c.trace_id
$$;

-- The calls already stored get their words from the service in the background (calls.SearchTermsBackfill), in
-- batches in key order: filing a large project's words here would hold the upgrade for as long as PostgreSQL takes
-- to cut them (about half a millisecond a call). Until the last batch, searches read the calls as before, with V16's
-- indexes; the last batch drops them. A database without calls has nothing to fill.
CREATE TABLE tracing.call_search_terms_backfill (
    only_row         boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    -- the key of the last call whose words are filed
    after_project_id text,
    after_id         text,
    done             boolean NOT NULL
);
INSERT INTO tracing.call_search_terms_backfill (done) SELECT NOT EXISTS (SELECT 1 FROM tracing.calls);

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM tracing.calls) THEN
        DROP INDEX tracing.calls_inputs_text;
        DROP INDEX tracing.calls_output_text;
    END IF;
END
$$;
