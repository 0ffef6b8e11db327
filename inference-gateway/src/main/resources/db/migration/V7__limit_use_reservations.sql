-- Each replica counts the requests and tokens it admits in its own memory, against a share of a limit it reserves
-- here (limits/RateLimits, docs/inference-gateway.md#limits-and-budgets): granted_* is what all replicas reserved
-- (never more than a limit, but for tokens charged past it by requests already running), requests and tokens what
-- they used, written within gateway.limits.flush. last_grant_* is what the latest reservation of the row got, so that
-- one UPDATE both reserves and answers how much.
ALTER TABLE inference.limit_use
    ADD COLUMN granted_requests    bigint NOT NULL DEFAULT 0,
    ADD COLUMN granted_tokens      bigint NOT NULL DEFAULT 0,
    ADD COLUMN last_grant_requests bigint NOT NULL DEFAULT 0,
    ADD COLUMN last_grant_tokens   bigint NOT NULL DEFAULT 0;
UPDATE inference.limit_use SET granted_requests = requests, granted_tokens = tokens;
