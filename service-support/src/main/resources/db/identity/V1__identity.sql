-- Users and teams share one namespace: the entity in a project id "entity/project".
CREATE TABLE entities (
    name        text PRIMARY KEY,
    kind        text NOT NULL CHECK (kind IN ('user', 'team')),
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
    name        text PRIMARY KEY REFERENCES entities (name),
    email       text,
    admin       boolean NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE teams (
    name        text PRIMARY KEY REFERENCES entities (name),
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
    team_name   text NOT NULL REFERENCES teams (name),
    user_name   text NOT NULL REFERENCES users (name),
    role        text NOT NULL CHECK (role IN ('member', 'admin')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (team_name, user_name)
);
CREATE INDEX memberships_by_user ON memberships (user_name);

-- Keys are stored only as SHA-256 hex; the hint is the last four characters, for listings.
CREATE TABLE api_keys (
    id          text PRIMARY KEY,
    user_name   text NOT NULL REFERENCES users (name),
    name        text NOT NULL,
    key_hash    text NOT NULL UNIQUE,
    hint        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);
CREATE INDEX api_keys_by_user ON api_keys (user_name);
