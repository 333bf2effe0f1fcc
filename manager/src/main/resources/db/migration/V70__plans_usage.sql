-- Plans (a named request limit a subscription is held to) and usage per application, proxy and minute as Workers
-- report it. Portable between H2 and PostgreSQL.
CREATE TABLE plans (
    name       VARCHAR(64) NOT NULL PRIMARY KEY,
    requests   INTEGER     NOT NULL,
    per        VARCHAR(8)  NOT NULL,
    proxy_name VARCHAR(64),
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL
);

ALTER TABLE subscriptions ADD COLUMN plan_name VARCHAR(64) REFERENCES plans (name);

-- Counts per (environment, application, proxy, minute); a Worker's report adds to them.
CREATE TABLE usage_minutes (
    environment    VARCHAR(64) NOT NULL,
    application_id VARCHAR(36) NOT NULL,
    proxy_name     VARCHAR(64) NOT NULL,
    minute_start   TIMESTAMP WITH TIME ZONE NOT NULL,
    requests       BIGINT NOT NULL,
    client_errors  BIGINT NOT NULL,
    server_errors  BIGINT NOT NULL,
    latency_us_sum BIGINT NOT NULL,
    latency_us_max BIGINT NOT NULL,
    PRIMARY KEY (environment, application_id, proxy_name, minute_start)
);
CREATE INDEX usage_minutes_proxy ON usage_minutes (proxy_name, minute_start);
CREATE INDEX usage_minutes_application ON usage_minutes (application_id, minute_start);
CREATE INDEX usage_minutes_minute ON usage_minutes (minute_start);

-- The reports already counted: a Worker that resends a report whose answer it lost is not counted twice.
CREATE TABLE usage_reports (
    id          VARCHAR(100) NOT NULL PRIMARY KEY,
    received_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX usage_reports_received ON usage_reports (received_at);
