-- tracing.usage_total_tokens, the same sum as in V12 and V13, without a query inside. V13's loop over
-- jsonb_each ran a query through SPI for every call written (every write computes the stored
-- usage_total_tokens column); here the models' usage objects are taken as one array by a JSON path and
-- walked by index, which PL/pgSQL evaluates as plain expressions. On the development machine this halved
-- the function's time (2.35 -> 1.08 µs a call) and cut a gateway usage call's insert into tracing.calls from
-- about 20 to 17 µs. STRICT answers NULL for a NULL summary, as before; the silent path answers an empty
-- array where summary or its usage is not an object, hence NULL too. The stored values do not change.
CREATE OR REPLACE FUNCTION tracing.usage_total_tokens(summary jsonb) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    models jsonb := jsonb_path_query_array(summary, 'strict $.usage.*', '{}', true);
    model jsonb;
    total bigint;
BEGIN
    FOR i IN 0 .. jsonb_array_length(models) - 1 LOOP
        model := models -> i;
        total := coalesce(total, 0) + coalesce(tracing.to_bigint(model ->> 'total_tokens'),
            coalesce(tracing.to_bigint(model ->> 'prompt_tokens'), 0)
                + coalesce(tracing.to_bigint(model ->> 'input_tokens'), 0)
                + coalesce(tracing.to_bigint(model ->> 'completion_tokens'), 0)
                + coalesce(tracing.to_bigint(model ->> 'output_tokens'), 0));
    END LOOP;
    RETURN total;
END
$$;
