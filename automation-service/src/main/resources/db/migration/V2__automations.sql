-- Team secrets, encrypted envelope-style: the value under a random data key (AES-256-GCM), the data
-- key wrapped by the configured key named kek_id. Both are bound to (entity, name) as associated data.
CREATE TABLE automation.secrets (
    entity      text        NOT NULL,
    name        text        NOT NULL,
    kek_id      text        NOT NULL,
    wrapped_dek bytea       NOT NULL,
    nonce       bytea       NOT NULL,
    ciphertext  bytea       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (entity, name)
);

-- Webhook endpoints of a team. Secrets are referenced by name within the same entity.
-- failing_since is the start of the current run of failed attempts; a success clears it.
CREATE TABLE automation.webhooks (
    id                  uuid        PRIMARY KEY,
    entity              text        NOT NULL,
    name                text        NOT NULL,
    url                 text        NOT NULL,
    access_token_secret text,
    signing_secret      text,
    enabled             boolean     NOT NULL DEFAULT true,
    disabled_reason     text,
    failing_since       timestamptz,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    UNIQUE (entity, name)
);

CREATE TABLE automation.automations (
    id               uuid        PRIMARY KEY,
    entity           text        NOT NULL,
    name             text        NOT NULL,
    description      text,
    enabled          boolean     NOT NULL,
    scope_type       text        NOT NULL,
    scope_project    text,
    scope_collection text,
    event_type       text        NOT NULL,
    event_filter     jsonb       NOT NULL,
    webhook_id       uuid        NOT NULL REFERENCES automation.webhooks (id),
    payload_template text        NOT NULL,
    created_by       text        NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);

-- A name is unique within its scope.
CREATE UNIQUE INDEX automations_name_per_scope ON automation.automations
    (entity, scope_type, COALESCE(scope_project, ''), COALESCE(scope_collection, ''), name);
-- The matcher looks up the enabled automations of an event's entity and type.
CREATE INDEX automations_matching ON automation.automations (entity, event_type) WHERE enabled;

-- One delivery per (event, automation), created in the transaction that stores the event. Its id is
-- the webhook-id sent on every attempt. The template is the one in force when the event matched.
CREATE TABLE automation.deliveries (
    id               uuid        PRIMARY KEY,
    event_id         text        NOT NULL REFERENCES automation.events (event_id),
    automation_id    uuid        NOT NULL REFERENCES automation.automations (id) ON DELETE CASCADE,
    webhook_id       uuid        NOT NULL REFERENCES automation.webhooks (id),
    payload_template text        NOT NULL,
    matched_values   text[]      NOT NULL DEFAULT '{}',
    payload_masked   text        NOT NULL,
    status           text        NOT NULL,
    attempt_count    integer     NOT NULL DEFAULT 0,
    -- MANUAL when a person asked for the next attempt (one try, no schedule after it).
    next_trigger     text        NOT NULL DEFAULT 'SCHEDULED',
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    lease_until      timestamptz,
    last_status_code integer,
    last_error       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (event_id, automation_id)
);

-- The dispatcher claims due rows in this order.
CREATE INDEX deliveries_due ON automation.deliveries (next_attempt_at) WHERE status IN ('PENDING', 'RETRY', 'SENDING');
CREATE INDEX deliveries_history ON automation.deliveries (automation_id, created_at DESC, id DESC);

-- Every HTTP attempt of a delivery, with what the endpoint answered (first 20 KiB, secrets scrubbed).
CREATE TABLE automation.attempts (
    id             bigserial   PRIMARY KEY,
    delivery_id    uuid        NOT NULL REFERENCES automation.deliveries (id) ON DELETE CASCADE,
    attempt_number integer     NOT NULL,
    trigger        text        NOT NULL,
    started_at     timestamptz NOT NULL,
    duration_ms    bigint      NOT NULL,
    status_code    integer,
    response_body  text,
    error          text,
    succeeded      boolean     NOT NULL
);
CREATE INDEX attempts_of_delivery ON automation.attempts (delivery_id, attempt_number);
