-- Which API a project's calls are written with (issue 30 part 1; docs/tracing-service.md#calls-complete-mode).
-- Weave's trace server keeps a project's calls where its first calls went: the first written through the v2
-- calls/complete or call/start|end API put the project in 'complete' mode, where the v1 call/start, call/end and
-- call/upsert_batch answer 400 CALLS_COMPLETE_MODE_REQUIRED (so that SDKs switch to the v2 API); a project that
-- already had calls, or whose first calls came through v1, stays 'legacy' and takes both. Decided once per project.
CREATE TABLE tracing.call_write_modes (
    project_id text PRIMARY KEY,
    mode text NOT NULL CHECK (mode IN ('legacy', 'complete')),
    decided_at timestamptz NOT NULL DEFAULT now()
);
