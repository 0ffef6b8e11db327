-- LLM token prices (spec section 12.2). Project prices have pricing_level 'project' and the project
-- id as pricing_level_id; default prices use 'default' for both and are never listed by /cost/query.
CREATE TABLE tracing.llm_token_prices (
    id                         text             PRIMARY KEY,
    pricing_level              text             NOT NULL,
    pricing_level_id           text             NOT NULL,
    provider_id                text             NOT NULL,
    llm_id                     text             NOT NULL,
    effective_date             timestamptz      NOT NULL,
    prompt_token_cost          double precision NOT NULL,
    completion_token_cost      double precision NOT NULL,
    prompt_token_cost_unit     text             NOT NULL,
    completion_token_cost_unit text             NOT NULL,
    created_by                 text             NOT NULL,
    created_at                 timestamptz      NOT NULL
);

CREATE INDEX llm_token_prices_by_llm ON tracing.llm_token_prices (llm_id, pricing_level_id, effective_date);

-- summary.weave.costs of a call: per model of summary.usage with a price, the token counts and
-- their cost under the best price: in effect at the call's start first, then the project's over
-- the default, then the newest. NULL when no model has a price.
CREATE FUNCTION tracing.call_costs(call_project text, call_started_at timestamptz, summary jsonb) RETURNS jsonb
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT jsonb_object_agg(usage.key, jsonb_build_object(
            'prompt_tokens', tokens.prompt, 'completion_tokens', tokens.completion,
            'requests', tokens.requests, 'total_tokens', tokens.total,
            'prompt_token_cost', price.prompt_token_cost, 'completion_token_cost', price.completion_token_cost,
            'prompt_tokens_total_cost', tokens.prompt * price.prompt_token_cost,
            'completion_tokens_total_cost', tokens.completion * price.completion_token_cost,
            'prompt_token_cost_unit', price.prompt_token_cost_unit,
            'completion_token_cost_unit', price.completion_token_cost_unit,
            'effective_date', tracing.iso_utc(price.effective_date), 'provider_id', price.provider_id,
            'pricing_level', price.pricing_level, 'pricing_level_id', price.pricing_level_id,
            'created_by', price.created_by, 'created_at', tracing.iso_utc(price.created_at)))
    FROM jsonb_each(CASE WHEN jsonb_typeof(summary -> 'usage') = 'object' THEN summary -> 'usage' ELSE '{}' END) usage
    CROSS JOIN LATERAL (SELECT
            coalesce(tracing.to_bigint(usage.value ->> 'prompt_tokens'), 0)
                + coalesce(tracing.to_bigint(usage.value ->> 'input_tokens'), 0) AS prompt,
            coalesce(tracing.to_bigint(usage.value ->> 'completion_tokens'), 0)
                + coalesce(tracing.to_bigint(usage.value ->> 'output_tokens'), 0) AS completion,
            coalesce(tracing.to_bigint(usage.value ->> 'requests'), 0) AS requests,
            coalesce(tracing.to_bigint(usage.value ->> 'total_tokens'), 0) AS total) tokens
    JOIN LATERAL (SELECT p.* FROM tracing.llm_token_prices p
            WHERE p.llm_id = usage.key AND p.pricing_level_id IN (call_project, 'default')
            ORDER BY p.effective_date <= call_started_at DESC, p.pricing_level_id = call_project DESC,
                p.effective_date DESC
            LIMIT 1) price ON true
$$;
