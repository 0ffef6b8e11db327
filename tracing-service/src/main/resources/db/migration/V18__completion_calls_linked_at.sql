-- When a completion's link was last written (by the client's call or the gateway's record), so that it is forgotten
-- once neither can arrive again (tracing.usage.completion-calls-kept; docs/tracing-service.md#usage-calls). Rows
-- from before this migration count from it. The pruner deletes by age in batches through the index.
ALTER TABLE tracing.completion_calls ADD COLUMN linked_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX completion_calls_linked_at ON tracing.completion_calls (linked_at);
