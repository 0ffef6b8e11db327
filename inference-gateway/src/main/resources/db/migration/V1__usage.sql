-- Usage records already counted, so that a redelivered record is counted once.
CREATE TABLE inference.usage_requests (
    request_id  text PRIMARY KEY,
    counted_at  timestamptz NOT NULL DEFAULT now()
);

-- Running totals per project and model, fed from the inference.usage topic.
CREATE TABLE inference.usage_totals (
    project_id        text        NOT NULL,
    model             text        NOT NULL,
    requests          bigint      NOT NULL,
    errors            bigint      NOT NULL,
    prompt_tokens     bigint      NOT NULL,
    completion_tokens bigint      NOT NULL,
    total_tokens      bigint      NOT NULL,
    last_request_at   timestamptz NOT NULL,
    PRIMARY KEY (project_id, model)
);
