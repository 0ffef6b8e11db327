-- Sorting calls by summary.weave.total_cost prices every call the filter keeps. V12 looked the price up per
-- call and per model in a non-inlined SQL function: an executor started per call and a scan of the whole
-- price table, which the shipped default prices (~62 rows) made the larger part of the work (100,000 roots:
-- about 3.3 s before the defaults, 5-6 s with them). A query now reads its project's candidate prices once,
-- as a "price book" (an InitPlan: `(SELECT tracing.price_book($project))`), and each call is priced from
-- it without a query: the book's entry for a model is found by key, its few candidates walked in memory.
-- The choosing rule is the one of V4 and V12 (docs/tracing-service.md#costs), written once, in
-- tracing.chosen_price, for both the costs a call shows and the total it sorts by.

-- The book reads the prices of one project and the defaults, per model: an index led by the level's id.
DROP INDEX tracing.llm_token_prices_by_llm;
CREATE INDEX llm_token_prices_by_level ON tracing.llm_token_prices (pricing_level_id, llm_id, effective_date DESC);

-- {"<llm id>": [candidate, …]}: each model that has a price of this project or a default price, with its
-- prices in the order the rule prefers them when all are in effect: the project's before the defaults,
-- then the latest effective date (then the latest created, then the id, so that equal dates choose one
-- price every time). A candidate holds what summary.weave.costs shows of a price and effective_at, its
-- effective date as epoch seconds. extra_float_digits > 0 writes each double as its shortest exact
-- decimal, so the costs read back from the book are the stored doubles, bit for bit.
CREATE FUNCTION tracing.price_book(project text) RETURNS jsonb
    LANGUAGE sql STABLE PARALLEL SAFE SET extra_float_digits = 3 AS $$
    SELECT coalesce(jsonb_object_agg(per_llm.llm_id, per_llm.candidates), '{}')
    FROM (SELECT p.llm_id, jsonb_agg(jsonb_build_object(
                'effective_at', extract(epoch FROM p.effective_date),
                'prompt_token_cost', p.prompt_token_cost, 'completion_token_cost', p.completion_token_cost,
                'prompt_token_cost_unit', p.prompt_token_cost_unit,
                'completion_token_cost_unit', p.completion_token_cost_unit,
                'effective_date', tracing.iso_utc(p.effective_date), 'provider_id', p.provider_id,
                'pricing_level', p.pricing_level, 'pricing_level_id', p.pricing_level_id,
                'created_by', p.created_by, 'created_at', tracing.iso_utc(p.created_at))
            ORDER BY p.pricing_level_id = project DESC, p.effective_date DESC, p.created_at DESC, p.id) AS candidates
        FROM tracing.llm_token_prices p
        WHERE p.pricing_level_id IN (project, 'default')
        GROUP BY p.llm_id) per_llm
$$;

-- The price of a call's model among its book candidates: the first in effect at the call's start, else
-- (all later than the call, or the call has no start) the first. Over the book's order this is V12's
-- ORDER BY effective_date <= started_at DESC, project's first, effective_date DESC: the project's latest
-- price in effect, else the defaults' latest in effect, else the project's latest, else the defaults'.
-- NULL when the model has no candidates.
CREATE FUNCTION tracing.chosen_price(candidates jsonb, call_started_at timestamptz) RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    started numeric := extract(epoch FROM call_started_at);
BEGIN
    FOR i IN 0 .. coalesce(jsonb_array_length(candidates), 0) - 1 LOOP
        IF (candidates -> i -> 'effective_at')::numeric <= started THEN
            RETURN candidates -> i;
        END IF;
    END LOOP;
    RETURN candidates -> 0;
END
$$;

-- The cost of a call: prompt and completion costs summed over its priced models (in the prices' units,
-- USD unless a price says otherwise), as V12 summed them. NULL when no model has a price. In PL/pgSQL
-- walking the models by index (as V14's usage_total_tokens), so pricing a call runs no query.
CREATE FUNCTION tracing.usage_total_cost(call_started_at timestamptz, summary jsonb, book jsonb)
    RETURNS double precision
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    models jsonb := jsonb_path_query_array(summary, 'strict $.usage.keyvalue()', '{}', true);
    model jsonb;
    price jsonb;
    total double precision;
BEGIN
    FOR i IN 0 .. coalesce(jsonb_array_length(models), 0) - 1 LOOP
        model := models -> i;
        price := tracing.chosen_price(book -> (model ->> 'key'), call_started_at);
        IF price IS NOT NULL THEN
            model := model -> 'value';
            total := coalesce(total, 0)
                + ((coalesce(tracing.to_bigint(model ->> 'prompt_tokens'), 0)
                        + coalesce(tracing.to_bigint(model ->> 'input_tokens'), 0))
                    * (price -> 'prompt_token_cost')::double precision
                + (coalesce(tracing.to_bigint(model ->> 'completion_tokens'), 0)
                        + coalesce(tracing.to_bigint(model ->> 'output_tokens'), 0))
                    * (price -> 'completion_token_cost')::double precision);
        END IF;
    END LOOP;
    RETURN total;
END
$$;

-- summary.weave.costs of a call: per priced model, the token counts, their cost and the price chosen (its
-- fields as V4 wrote them). NULL when no model has a price.
CREATE FUNCTION tracing.call_costs(call_started_at timestamptz, summary jsonb, book jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT jsonb_object_agg(usage.key, (chosen.price - 'effective_at') || jsonb_build_object(
            'prompt_tokens', tokens.prompt, 'completion_tokens', tokens.completion,
            'requests', tokens.requests, 'total_tokens', tokens.total,
            'prompt_tokens_total_cost', tokens.prompt * (chosen.price -> 'prompt_token_cost')::double precision,
            'completion_tokens_total_cost',
                tokens.completion * (chosen.price -> 'completion_token_cost')::double precision))
    FROM jsonb_each(CASE WHEN jsonb_typeof(summary -> 'usage') = 'object' THEN summary -> 'usage' ELSE '{}' END) usage
    CROSS JOIN LATERAL (SELECT tracing.chosen_price(book -> usage.key, call_started_at) AS price) chosen
    CROSS JOIN LATERAL (SELECT
            coalesce(tracing.to_bigint(usage.value ->> 'prompt_tokens'), 0)
                + coalesce(tracing.to_bigint(usage.value ->> 'input_tokens'), 0) AS prompt,
            coalesce(tracing.to_bigint(usage.value ->> 'completion_tokens'), 0)
                + coalesce(tracing.to_bigint(usage.value ->> 'output_tokens'), 0) AS completion,
            coalesce(tracing.to_bigint(usage.value ->> 'requests'), 0) AS requests,
            coalesce(tracing.to_bigint(usage.value ->> 'total_tokens'), 0) AS total) tokens
    WHERE chosen.price IS NOT NULL
$$;

DROP FUNCTION tracing.call_costs(text, timestamptz, jsonb);
DROP FUNCTION tracing.usage_total_cost(text, timestamptz, jsonb);
DROP FUNCTION tracing.priced_usage(text, timestamptz, jsonb);
