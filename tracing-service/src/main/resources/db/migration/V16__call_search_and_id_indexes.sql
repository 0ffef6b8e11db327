-- Searching inputs and outputs (docs/tracing-service.md#searching-inputs-and-outputs): $contains on a whole
-- JSON column matches its JSON text with a LIKE / ILIKE pattern; these trigram indexes find the calls whose
-- text holds every trigram of the pattern, so a rare word reads a few rows instead of every call's JSON.
-- pg_trgm ships with PostgreSQL (contrib) and is a trusted extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX calls_inputs_text ON tracing.calls USING gin ((inputs::text) gin_trgm_ops)
    WHERE started_at IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX calls_output_text ON tracing.calls USING gin ((output::text) gin_trgm_ops)
    WHERE started_at IS NOT NULL AND deleted_at IS NULL;

-- The text of a string as it reads inside a JSON string (quotes and backslashes escaped), for a
-- $contains on a whole column whose substring is not a literal.
CREATE FUNCTION tracing.json_string_content(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT substr(to_jsonb(value)::text, 2, length(to_jsonb(value)::text) - 2)
$$;

-- The turn_ids filter, like the other id filters, reads an index (calls with no turn have no entry).
CREATE INDEX calls_by_turn ON tracing.calls (project_id, turn_id) WHERE turn_id IS NOT NULL;
