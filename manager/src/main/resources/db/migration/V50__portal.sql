-- The developer portal: developers, their applications, subscriptions (application -> proxy) and API keys.
-- Portable between H2 and PostgreSQL. Keys are stored only as SHA-256 (hex) plus a display prefix.
CREATE TABLE developers (
    id            VARCHAR(36)  NOT NULL PRIMARY KEY,
    email         VARCHAR(254) NOT NULL UNIQUE,
    password_hash VARCHAR(255) NOT NULL,
    status        VARCHAR(16)  NOT NULL,
    failed_attempts INTEGER    NOT NULL,
    locked_until  TIMESTAMP WITH TIME ZONE,
    created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at    TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE TABLE developer_sessions (
    token_hash   VARCHAR(64) NOT NULL PRIMARY KEY,
    developer_id VARCHAR(36) NOT NULL REFERENCES developers (id) ON DELETE CASCADE,
    csrf         VARCHAR(64) NOT NULL,
    expires_at   TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX developer_sessions_developer ON developer_sessions (developer_id);

CREATE TABLE applications (
    id           VARCHAR(36)  NOT NULL PRIMARY KEY,
    developer_id VARCHAR(36)  NOT NULL REFERENCES developers (id) ON DELETE CASCADE,
    name         VARCHAR(100) NOT NULL,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX applications_developer ON applications (developer_id);

CREATE TABLE portal_publications (
    proxy_name   VARCHAR(64) NOT NULL PRIMARY KEY,
    auto_approve BOOLEAN     NOT NULL,
    updated_at   TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE TABLE subscriptions (
    id             VARCHAR(36) NOT NULL PRIMARY KEY,
    application_id VARCHAR(36) NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    proxy_name     VARCHAR(64) NOT NULL,
    status         VARCHAR(16) NOT NULL,
    created_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    UNIQUE (application_id, proxy_name)
);

CREATE TABLE api_keys (
    id             VARCHAR(36) NOT NULL PRIMARY KEY,
    application_id VARCHAR(36) NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    key_hash       VARCHAR(64) NOT NULL UNIQUE,
    prefix         VARCHAR(16) NOT NULL,
    created_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    revoked_at     TIMESTAMP WITH TIME ZONE
);
CREATE INDEX api_keys_application ON api_keys (application_id);

-- One row: bumped by every change that alters what a Worker's key check answers, so replicas and Workers notice.
CREATE TABLE key_set_version (
    id      INTEGER NOT NULL PRIMARY KEY,
    version BIGINT  NOT NULL
);
INSERT INTO key_set_version (id, version) VALUES (1, 1);
