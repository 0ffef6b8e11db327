-- One row per chat completion the inference gateway served, by project and the completion's id (the `id` of the
-- chat.completion its client got): the call a client-side tracer recorded of it (its output carries that id) and the
-- call the gateway's usage record made. Whichever arrives second sees the first here, in the same transaction as its
-- own write, so that one completion is one call: the client's (docs/tracing-service.md#usage-calls).
CREATE TABLE tracing.completion_calls (
    project_id text NOT NULL,
    completion_id text NOT NULL,
    client_call_id text,
    gateway_call_id text,
    PRIMARY KEY (project_id, completion_id)
);
