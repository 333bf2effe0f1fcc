package io.pylon.integration;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/** The Integration module's settings: its database, the scheduler, egress, history bounds and the HTTP trigger. */
public final class IntegrationSettings {
    private IntegrationSettings() {
    }

    public static final Setting<String> DB_URL = Setting.of("pylon.integration.db.url",
            "JDBC URL of the database the Integration pods share: flows, run history and the scheduler's table "
                    + "(jdbc:postgresql://host:5432/pylon in production, the Manager's database works: the tables are "
                    + "prefixed integration_ and migrated separately). Default: an embedded H2 file under the data "
                    + "directory, for one pod; ./pylon up gives its two pods one H2 file in automatic mixed mode "
                    + "(AUTO_SERVER=TRUE).", null, SettingType.NON_EMPTY);

    public static final Setting<String> DB_USER = Setting.of("pylon.integration.db.user", "Database user.", null,
            SettingType.NON_EMPTY);

    public static final Setting<String> DB_PASSWORD = Setting.secret("pylon.integration.db.password",
            "Database password (a Kubernetes Secret).", null, SettingType.STRING);

    public static final Setting<Integer> DB_POOL_SIZE = Setting.of("pylon.integration.db.pool-size",
            "Largest number of database connections of one Integration pod.", 10, SettingType.intRange(2, 200));

    public static final Setting<List<String>> ALLOWED_HOSTS = Setting.of("pylon.integration.allowed-hosts",
            "Where http and webhook steps may connect: host names (api.example.com), *.domain, * (any name), IP "
                    + "addresses and CIDR blocks, comma-separated. Names reach public addresses only; loopback, "
                    + "private, link-local and cloud metadata addresses (after DNS, IPv4-mapped IPv6 decoded) need an "
                    + "IP or CIDR entry. Empty: no step may connect anywhere.", List.of(), SettingType.LIST);

    public static final Setting<java.nio.file.Path> SECRETS_DIR = Setting.of("pylon.integration.secrets-dir",
            "Directory of the secrets flows name (hmacSecretRef): one file per secret, the file name is the name "
                    + "(a mounted Kubernetes Secret). Default: secrets under the data directory.", null,
            SettingType.PATH);

    public static final Setting<URI> MANAGER_URL = Setting.of("pylon.integration.manager-url",
            "The Manager that checks management tokens sent to the Integration API.", URI.create("http://127.0.0.1:8080"),
            SettingType.HTTP_URL);

    public static final Setting<Duration> TOKEN_CACHE = Setting.of("pylon.integration.token-cache",
            "How long a management token the Manager accepted is taken without asking again (a revoked token "
                    + "works this long at most).", Duration.ofSeconds(30), SettingType.DURATION_TYPE);

    public static final Setting<Integer> THREADS = Setting.of("pylon.integration.threads",
            "Runs one Integration pod executes at once (virtual threads); further due runs wait in the database for "
                    + "this pod or another.", 32, SettingType.intRange(1, 1000));

    public static final Setting<Duration> POLLING_INTERVAL = Setting.of("pylon.integration.polling-interval",
            "How often a pod looks in the database for due runs: the most a scheduled run starts late on an idle "
                    + "pod.", Duration.ofMillis(250), SettingType.durationAtLeast(Duration.ofMillis(50)));

    public static final Setting<Duration> SCHEDULE_LEAD = Setting.of("pylon.integration.schedule-lead",
            "How long before a scheduled instant a pod picks the flow's run, which then waits on its thread until the "
                    + "instant: polling, picking and a busy machine delay the pick, not the start. At most 10s; 0 picks "
                    + "at the instant.", Duration.ofSeconds(1), SettingType.durationAtLeast(Duration.ZERO));

    public static final Setting<Duration> HEARTBEAT_INTERVAL = Setting.of("pylon.integration.heartbeat-interval",
            "How often a pod marks the runs it executes as alive. A run whose pod missed "
                    + "pylon.integration.missed-heartbeats of them is started again by another pod (at-least-once).",
            Duration.ofSeconds(5), SettingType.durationAtLeast(Duration.ofMillis(500)));

    public static final Setting<Integer> MISSED_HEARTBEATS = Setting.of("pylon.integration.missed-heartbeats",
            "Heartbeats a pod may miss before its runs are taken over by another pod (db-scheduler needs 4 at least).", 4,
            SettingType.intRange(4, 100));

    public static final Setting<Integer> HTTP_MAX_BODY = Setting.of("pylon.integration.http.max-body",
            "Bytes of a response body an http or webhook step keeps (a step's maxBody may change it up to 16 MiB); "
                    + "the rest is not read and the output says truncated.", 1024 * 1024,
            SettingType.intRange(1024, 16 * 1024 * 1024));

    public static final Setting<Integer> HTTP_MAX_CONNECTIONS = Setting.of("pylon.integration.http.max-connections",
            "Connections the steps of one pod hold open at most.", 200, SettingType.intRange(1, 10000));

    public static final Setting<Duration> TRANSFORM_TIMEOUT = Setting.of("pylon.integration.transform.timeout",
            "How long one JSONata expression may run before it is stopped (its step fails).", Duration.ofSeconds(2),
            SettingType.durationAtLeast(Duration.ofMillis(10)));

    public static final Setting<Integer> TRANSFORM_MAX_DEPTH = Setting.of("pylon.integration.transform.max-depth",
            "How deep one JSONata expression may nest or recurse before it is stopped (its step fails).", 200,
            SettingType.intRange(10, 10000));

    public static final Setting<Integer> HISTORY_OUTPUT_MAX = Setting.of("pylon.integration.history.output-max",
            "Characters of a step's output (and a run's input) history keeps; longer ones are cut and marked "
                    + "truncated, with their full size.", 16 * 1024, SettingType.intRange(256, 1024 * 1024));

    public static final Setting<Duration> HISTORY_RETENTION = Setting.of("pylon.integration.history.retention",
            "How long finished runs and their step attempts are kept.", Duration.ofDays(7), SettingType.DURATION_TYPE);

    public static final Setting<Integer> HISTORY_MAX_RUNS = Setting.of("pylon.integration.history.max-runs-per-flow",
            "Finished runs kept per flow (the newest); older ones are deleted with their steps.", 1000,
            SettingType.intRange(1, 10_000_000));

    public static final Setting<Duration> HISTORY_PRUNE_INTERVAL = Setting.of("pylon.integration.history.prune-interval",
            "How often one pod of the cluster prunes history by age and count.", Duration.ofMinutes(1),
            SettingType.durationAtLeast(Duration.ofSeconds(1)));

    public static final Setting<Integer> PREVIOUS_MAX = Setting.of("pylon.integration.previous-max",
            "Characters of a finished run's step outputs kept for the next run's $previous; the largest outputs are "
                    + "left out until the rest fits.", 256 * 1024, SettingType.intRange(1024, 16 * 1024 * 1024));

    public static final Setting<Integer> TRIGGER_MAX_INPUT = Setting.of("pylon.integration.trigger.max-input",
            "Largest run input (request body) POST .../runs accepts, in bytes.", 1024 * 1024,
            SettingType.intRange(1024, 16 * 1024 * 1024));

    public static final Setting<Integer> TRIGGER_MAX_WAITING = Setting.of("pylon.integration.trigger.max-waiting",
            "Callers of POST .../runs?wait= waiting at once on one pod; more get 429.", 200,
            SettingType.intRange(1, 100000));

    public static final Setting<Integer> MAX_FLOWS = Setting.of("pylon.integration.max-flows",
            "Most flows the cluster keeps.", 1000, SettingType.intRange(1, 100000));

    public static List<Setting<?>> all() {
        return List.of(DB_URL, DB_USER, DB_PASSWORD, DB_POOL_SIZE, ALLOWED_HOSTS, SECRETS_DIR, MANAGER_URL, TOKEN_CACHE,
                THREADS, POLLING_INTERVAL, SCHEDULE_LEAD, HEARTBEAT_INTERVAL, MISSED_HEARTBEATS, HTTP_MAX_BODY, HTTP_MAX_CONNECTIONS,
                TRANSFORM_TIMEOUT, TRANSFORM_MAX_DEPTH, HISTORY_OUTPUT_MAX, HISTORY_RETENTION, HISTORY_MAX_RUNS,
                HISTORY_PRUNE_INTERVAL, PREVIOUS_MAX, TRIGGER_MAX_INPUT, TRIGGER_MAX_WAITING, MAX_FLOWS);
    }
}
