-- Calls sort and filter by their total tokens and total cost (summary.weave.total_tokens and
-- summary.weave.total_cost), over every page, as the console's calls table does for any column.

-- The tokens of a call's summary.usage, over its models: a model's total_tokens, or where that is
-- missing its prompt, input, completion and output tokens added up. NULL when the call has no usage.
CREATE FUNCTION tracing.usage_total_tokens(summary jsonb) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT sum(coalesce(tracing.to_bigint(model.value ->> 'total_tokens'),
            coalesce(tracing.to_bigint(model.value ->> 'prompt_tokens'), 0)
                + coalesce(tracing.to_bigint(model.value ->> 'input_tokens'), 0)
                + coalesce(tracing.to_bigint(model.value ->> 'completion_tokens'), 0)
                + coalesce(tracing.to_bigint(model.value ->> 'output_tokens'), 0)))::bigint
    FROM jsonb_each(CASE WHEN jsonb_typeof(summary -> 'usage') = 'object' THEN summary -> 'usage' ELSE '{}' END) model
$$;

-- Stored with the row (it follows summary through every write), since a sort needs it for every call
-- of the project: computed when read it cost about 20 µs a call on the development machine.
ALTER TABLE tracing.calls ADD COLUMN usage_total_tokens bigint
    GENERATED ALWAYS AS (tracing.usage_total_tokens(summary)) STORED;

-- The console lists trace roots and sorts its first click descending, the next ascending; with these a
-- page of a 100,000-root project sorted by tokens reads 50 index entries (under 1 ms) instead of sorting
-- every root (about 1 s). Calls without usage last in both directions, with the id tie-break ascending,
-- takes one index per direction. Only roots are indexed: other calls' writes add no entries.
CREATE INDEX calls_roots_by_tokens_desc ON tracing.calls (project_id, usage_total_tokens DESC NULLS LAST, id)
    WHERE started_at IS NOT NULL AND deleted_at IS NULL AND parent_id IS NULL;
CREATE INDEX calls_roots_by_tokens_asc ON tracing.calls (project_id, usage_total_tokens, id)
    WHERE started_at IS NOT NULL AND deleted_at IS NULL AND parent_id IS NULL;

-- Each model of a call's summary.usage that has a price, with its token counts (docs/tracing-service.md#costs) and
-- the best price: in effect at the call's start first, then the project's over the default, then the
-- newest. Both the costs a call shows and the total it sorts by come from here.
CREATE FUNCTION tracing.priced_usage(call_project text, call_started_at timestamptz, summary jsonb)
    RETURNS TABLE (llm_id text, prompt_tokens bigint, completion_tokens bigint, requests bigint, total_tokens bigint,
        price tracing.llm_token_prices)
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT usage.key,
            coalesce(tracing.to_bigint(usage.value ->> 'prompt_tokens'), 0)
                + coalesce(tracing.to_bigint(usage.value ->> 'input_tokens'), 0),
            coalesce(tracing.to_bigint(usage.value ->> 'completion_tokens'), 0)
                + coalesce(tracing.to_bigint(usage.value ->> 'output_tokens'), 0),
            coalesce(tracing.to_bigint(usage.value ->> 'requests'), 0),
            coalesce(tracing.to_bigint(usage.value ->> 'total_tokens'), 0),
            best
    FROM jsonb_each(CASE WHEN jsonb_typeof(summary -> 'usage') = 'object' THEN summary -> 'usage' ELSE '{}' END) usage
    JOIN LATERAL (SELECT p FROM tracing.llm_token_prices p
            WHERE p.llm_id = usage.key AND p.pricing_level_id IN (call_project, 'default')
            ORDER BY p.effective_date <= call_started_at DESC, p.pricing_level_id = call_project DESC,
                p.effective_date DESC
            LIMIT 1) chosen(best) ON true
$$;

-- summary.weave.costs of a call: per priced model, the token counts and their cost. NULL when no model
-- has a price. (As in V4, now over tracing.priced_usage.)
CREATE OR REPLACE FUNCTION tracing.call_costs(call_project text, call_started_at timestamptz, summary jsonb) RETURNS jsonb
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT jsonb_object_agg(priced.llm_id, jsonb_build_object(
            'prompt_tokens', priced.prompt_tokens, 'completion_tokens', priced.completion_tokens,
            'requests', priced.requests, 'total_tokens', priced.total_tokens,
            'prompt_token_cost', (priced.price).prompt_token_cost,
            'completion_token_cost', (priced.price).completion_token_cost,
            'prompt_tokens_total_cost', priced.prompt_tokens * (priced.price).prompt_token_cost,
            'completion_tokens_total_cost', priced.completion_tokens * (priced.price).completion_token_cost,
            'prompt_token_cost_unit', (priced.price).prompt_token_cost_unit,
            'completion_token_cost_unit', (priced.price).completion_token_cost_unit,
            'effective_date', tracing.iso_utc((priced.price).effective_date), 'provider_id', (priced.price).provider_id,
            'pricing_level', (priced.price).pricing_level, 'pricing_level_id', (priced.price).pricing_level_id,
            'created_by', (priced.price).created_by, 'created_at', tracing.iso_utc((priced.price).created_at)))
    FROM tracing.priced_usage(call_project, call_started_at, summary) priced
$$;

-- The cost of a call: prompt and completion costs summed over its priced models (in the prices' units,
-- USD unless a price says otherwise). NULL when no model has a price. Computed when read, neither stored
-- nor indexed, because a price created later, with an earlier effective date, changes the cost of calls
-- already written: a sort by cost prices every call the filter keeps (about 30 µs a call).
CREATE FUNCTION tracing.usage_total_cost(call_project text, call_started_at timestamptz, summary jsonb)
    RETURNS double precision
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT sum(priced.prompt_tokens * (priced.price).prompt_token_cost
            + priced.completion_tokens * (priced.price).completion_token_cost)
    FROM tracing.priced_usage(call_project, call_started_at, summary) priced
$$;
