-- What a call write costs PostgreSQL, measured per inserted OTel call (EXPLAIN ANALYZE and perf of the
-- backend during the batched upsert): parsing otel_dump into jsonb, pglz-compressing each ~2 KiB row,
-- re-printing four jsonb columns as text for the generated storage_size_bytes, and index entries no
-- query reads. Together about half of the backend's CPU per call; each is removed here.

-- The span is only ever returned (as attributes.otel_span), never filtered or sorted on: it stays the
-- JSON text it arrived as and is parsed when a read returns it.
ALTER TABLE tracing.calls ALTER COLUMN otel_dump TYPE text;

-- The byte size of each JSON column as written (the length of the JSON text the service sent), kept
-- with the column by the same first-write-wins merge; storage_size_bytes is their sum at read time.
ALTER TABLE tracing.calls
    DROP COLUMN storage_size_bytes,
    ADD COLUMN attributes_size_bytes integer,
    ADD COLUMN inputs_size_bytes integer,
    ADD COLUMN output_size_bytes integer,
    ADD COLUMN summary_size_bytes integer;
UPDATE tracing.calls SET
    attributes_size_bytes = octet_length(attributes::text),
    inputs_size_bytes = octet_length(inputs::text),
    output_size_bytes = octet_length(output::text),
    summary_size_bytes = octet_length(summary::text);

-- A row below 8 KB stays inline and uncompressed: pglz-compressing the JSON of each typical OTel call
-- (rows just over the 2 KB default target) took about an eighth of the insert's CPU. Larger rows are
-- still compressed and moved out of line.
ALTER TABLE tracing.calls SET (toast_tuple_target = 8160);

-- Calls without refs (most of them) and root calls have nothing to find in these indexes: the refs
-- filters and the parent lookups (parent_ids, the delete cascade) only ever look for present values.
DROP INDEX tracing.calls_input_refs;
DROP INDEX tracing.calls_output_refs;
DROP INDEX tracing.calls_by_parent;
CREATE INDEX calls_input_refs ON tracing.calls USING gin (input_refs) WHERE cardinality(input_refs) > 0;
CREATE INDEX calls_output_refs ON tracing.calls USING gin (output_refs) WHERE cardinality(output_refs) > 0;
CREATE INDEX calls_by_parent ON tracing.calls (project_id, parent_id) WHERE parent_id IS NOT NULL;
