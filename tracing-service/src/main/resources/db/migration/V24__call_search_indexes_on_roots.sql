-- Searching inputs and outputs (docs/tracing-service.md#searching-inputs-and-outputs): V16's trigram indexes held
-- every call's inputs and output text, about a thousand entries per kilobyte, and ingest paid for them: from the
-- packaged service (bench/search.sh, calls of ~1 KB inputs and outputs in traces of five) call/upsert_batch ran at
-- 0.46 to 0.61 of the rate it has without them; with these, 0.70 to 1.19 (three runs on a loaded machine). The
-- console's search box pages over trace roots, and a search page first reads the first 5,000 calls in its order
-- anyway (a common word is found there), so the indexes now hold trace roots only: a root search asks them for a
-- rare word as before, at a fraction of the write cost. A search that also reaches child calls (an op filter, the
-- API without trace_roots_only) finds what the walk finds and otherwise reads the project's calls (bench/search.sh:
-- a rare word over 1,000,000 calls took 7.3 s against 0.24 s with V16's indexes).
DROP INDEX tracing.calls_inputs_text;
DROP INDEX tracing.calls_output_text;

CREATE INDEX calls_root_inputs_text ON tracing.calls USING gin ((inputs::text) gin_trgm_ops)
    WHERE parent_id IS NULL AND started_at IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX calls_root_output_text ON tracing.calls USING gin ((output::text) gin_trgm_ops)
    WHERE parent_id IS NULL AND started_at IS NOT NULL AND deleted_at IS NULL;
