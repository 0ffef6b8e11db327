-- Limits and budgets set through /v1/limits (limits/LimitsStore, docs/inference-gateway.md#limits-and-budgets): one
-- row per project (api_key_id '') and per API key within a project; a null column is no limit of that kind (the
-- configuration's default then applies, where it sets one).
CREATE TABLE inference.limits (
    project_id          text        NOT NULL,
    api_key_id          text        NOT NULL DEFAULT '',
    requests_per_minute bigint CHECK (requests_per_minute >= 0),
    tokens_per_minute   bigint CHECK (tokens_per_minute >= 0),
    tokens_per_day      bigint CHECK (tokens_per_day >= 0),
    tokens_per_month    bigint CHECK (tokens_per_month >= 0),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    updated_by          text        NOT NULL,
    PRIMARY KEY (project_id, api_key_id)
);

-- What a project (api_key_id '') or a key in it used in one window (a UTC minute, day or calendar month starting at
-- window_start), shared by every gateway replica: a request adds 1 when admitted, its tokens when it ends. Only
-- subjects with a limit in force are counted. Windows that ended are forgotten (LimitUsePruner) through the index.
CREATE TABLE inference.limit_use (
    project_id   text        NOT NULL,
    api_key_id   text        NOT NULL,
    window_kind  text        NOT NULL CHECK (window_kind IN ('minute', 'day', 'month')),
    window_start timestamptz NOT NULL,
    requests     bigint      NOT NULL DEFAULT 0,
    tokens       bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, api_key_id, window_kind, window_start)
);
CREATE INDEX limit_use_window_start ON inference.limit_use (window_start);
