-- Responses stored for previous_response_id and GET /v1/responses/{id} (ResponsesStore, docs/inference-gateway.md#the-responses-api):
-- one row per response of a project, its whole conversation so far (the input items, with those of the responses it
-- continues) beside the Response object, forgotten after gateway.responses.kept (StoredResponsesPruner) through the
-- index on created_at.
CREATE TABLE inference.responses (
    id         text PRIMARY KEY,
    project_id text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    input      jsonb       NOT NULL,
    response   jsonb       NOT NULL
);
CREATE INDEX responses_created_at ON inference.responses (created_at);
