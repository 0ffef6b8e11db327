-- The same counts per UTC day, for charts over time (the console's usage page). Requests counted before this
-- table existed are in the totals only.
CREATE TABLE inference.usage_daily (
    project_id        text   NOT NULL,
    model             text   NOT NULL,
    day               date   NOT NULL,
    requests          bigint NOT NULL,
    errors            bigint NOT NULL,
    prompt_tokens     bigint NOT NULL,
    completion_tokens bigint NOT NULL,
    total_tokens      bigint NOT NULL,
    PRIMARY KEY (project_id, day, model)
);
