-- API proxies, their immutable revisions, per-environment deployments and what each Worker pod reported.
-- Portable between H2 and PostgreSQL: TEXT is a CLOB on H2; times are TIMESTAMP WITH TIME ZONE.
CREATE TABLE proxies (
    name        VARCHAR(64) NOT NULL PRIMARY KEY,
    revision    INTEGER     NOT NULL,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_by  VARCHAR(64) NOT NULL
);

CREATE TABLE proxy_revisions (
    name        VARCHAR(64)   NOT NULL,
    revision    INTEGER       NOT NULL,
    definition  TEXT          NOT NULL,
    openapi     TEXT,
    author      VARCHAR(64)   NOT NULL,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    comment     VARCHAR(1000) NOT NULL,
    PRIMARY KEY (name, revision)
);

CREATE TABLE deployments (
    environment  VARCHAR(63)   NOT NULL,
    version      BIGINT        NOT NULL,
    bundle       TEXT          NOT NULL,
    sha256       VARCHAR(64)   NOT NULL,
    kind         VARCHAR(16)   NOT NULL,
    from_version BIGINT,
    author       VARCHAR(64)   NOT NULL,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    comment      VARCHAR(1000) NOT NULL,
    PRIMARY KEY (environment, version)
);

CREATE TABLE deployment_proxies (
    environment VARCHAR(63) NOT NULL,
    version     BIGINT      NOT NULL,
    name        VARCHAR(64) NOT NULL,
    revision    INTEGER     NOT NULL,
    PRIMARY KEY (environment, version, name)
);

CREATE TABLE gateway_pods (
    environment      VARCHAR(63)   NOT NULL,
    pod_name         VARCHAR(253)  NOT NULL,
    pod_ip           VARCHAR(64),
    applied_version  BIGINT,
    applied_hash     VARCHAR(64),
    source           VARCHAR(16),
    rejected_version BIGINT,
    last_error       VARCHAR(1000),
    last_contact     TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (environment, pod_name)
);
