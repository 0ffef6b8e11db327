-- tracing.usage_total_tokens, the same sum as in V12, in PL/pgSQL. Every write of a call computes it for the
-- stored usage_total_tokens column; as a SQL function over jsonb_each (not inlinable) it cost about 9.5 µs a
-- call on the development machine, a fifth of a call insert's time when the gateway records its requests,
-- and PL/pgSQL with its cached plan about 4.3 µs. The stored values do not change.
CREATE OR REPLACE FUNCTION tracing.usage_total_tokens(summary jsonb) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    usage jsonb := summary -> 'usage';
    model jsonb;
    total bigint;
BEGIN
    IF jsonb_typeof(usage) IS DISTINCT FROM 'object' THEN
        RETURN NULL;
    END IF;
    FOR model IN SELECT value FROM jsonb_each(usage) LOOP
        total := coalesce(total, 0) + coalesce(tracing.to_bigint(model ->> 'total_tokens'),
            coalesce(tracing.to_bigint(model ->> 'prompt_tokens'), 0)
                + coalesce(tracing.to_bigint(model ->> 'input_tokens'), 0)
                + coalesce(tracing.to_bigint(model ->> 'completion_tokens'), 0)
                + coalesce(tracing.to_bigint(model ->> 'output_tokens'), 0));
    END LOOP;
    RETURN total;
END
$$;
