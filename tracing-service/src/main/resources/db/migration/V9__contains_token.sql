-- $containsToken (spec section 5): ClickHouse's hasToken. A token is bounded by the start or end of the
-- text or by an ASCII character that is not a letter or digit; other characters (non-ASCII included)
-- belong to tokens. An empty token never matches; NULL in, NULL out.
CREATE FUNCTION tracing.has_token(haystack text, token text) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    start_at int := 1;
    found int;
BEGIN
    IF haystack IS NULL OR token IS NULL THEN
        RETURN NULL;
    END IF;
    IF token = '' THEN
        RETURN false;
    END IF;
    LOOP
        found := strpos(substr(haystack, start_at), token);
        IF found = 0 THEN
            RETURN false;
        END IF;
        found := found + start_at - 1;
        IF tracing.is_token_separator(substr(haystack, found - 1, CASE WHEN found = 1 THEN 0 ELSE 1 END))
                AND tracing.is_token_separator(substr(haystack, found + length(token), 1)) THEN
            RETURN true;
        END IF;
        start_at := found + 1;
    END LOOP;
END
$$;

-- The empty string (before the start, after the end) separates too.
CREATE FUNCTION tracing.is_token_separator(symbol text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT symbol = '' OR (ascii(symbol) < 128 AND symbol !~ '[A-Za-z0-9]')
$$;
