package io.pylon.manager;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.time.Duration;
import java.util.List;

/** The Manager's own settings: database, accounts, tokens, the first administrator and the bootstrap environment. */
public final class ManagerSettings {
    private ManagerSettings() {
    }

    public static final Setting<String> DB_URL = Setting.of("pylon.manager.db.url",
            "JDBC URL of the Manager database (jdbc:postgresql://host:5432/pylon for production; several Manager "
                    + "replicas share it). Default: an embedded H2 file database under the data directory.",
            null, SettingType.NON_EMPTY);

    public static final Setting<String> DB_USER = Setting.of("pylon.manager.db.user",
            "Database user.", null, SettingType.NON_EMPTY);

    public static final Setting<String> DB_PASSWORD = Setting.secret("pylon.manager.db.password",
            "Database password (a Kubernetes Secret).", null, SettingType.STRING);

    public static final Setting<Integer> DB_POOL_SIZE = Setting.of("pylon.manager.db.pool-size",
            "Largest number of database connections of one Manager pod.", 10, SettingType.intRange(1, 200));

    public static final Setting<Duration> TOKEN_LIFETIME = Setting.of("pylon.manager.token.lifetime",
            "Lifetime of an access token from POST /apiops/auth/token (its expires_in).",
            Duration.ofHours(1), SettingType.DURATION_TYPE);

    public static final Setting<Duration> TOKEN_CHECK_CACHE = Setting.of("pylon.manager.token.check-cache",
            "How long one pod reuses the database's answer for a Bearer token. Revocation, disabling and locking on "
                    + "the same pod take effect at once; on other replicas after at most this long. 0ms: no cache.",
            Duration.ofSeconds(2), SettingType.DURATION_TYPE);

    public static final Setting<Integer> MAX_FAILURES = Setting.of("pylon.manager.auth.max-failures",
            "Consecutive failed logins to an account, from all addresses and replicas, after which its password "
                    + "sign-in is locked (its tokens keep working). Above pylon.manager.signin.account-source-max-failures, "
                    + "so that one address alone cannot lock an account.", 20, SettingType.intRange(1, 1000));

    public static final Setting<Duration> LOCK_DURATION = Setting.of("pylon.manager.auth.lock-duration",
            "How long a locked account refuses password sign-in (an admin may unlock it earlier).",
            Duration.ofMinutes(15), SettingType.DURATION_TYPE);

    public static final Setting<Integer> ARGON2_MEMORY = Setting.of("pylon.manager.password.argon2-memory",
            "Argon2id memory cost in KiB for new password hashes (OWASP: 19456 = 19 MiB).", 19456,
            SettingType.intRange(1024, 4 * 1024 * 1024));

    public static final Setting<Integer> ARGON2_ITERATIONS = Setting.of("pylon.manager.password.argon2-iterations",
            "Argon2id iterations for new password hashes (OWASP: 2).", 2, SettingType.intRange(1, 100));

    public static final Setting<Integer> ARGON2_PARALLELISM = Setting.of("pylon.manager.password.argon2-parallelism",
            "Argon2id parallelism for new password hashes (OWASP: 1).", 1, SettingType.intRange(1, 64));

    public static final Setting<String> ADMIN_USERNAME = Setting.of("pylon.manager.admin.username",
            "Username of the first administrator, created at start-up when the database has no account.",
            "admin", SettingType.NON_EMPTY);

    public static final Setting<String> ADMIN_PASSWORD = Setting.secret("pylon.manager.admin.password",
            "Password of the first administrator (a Kubernetes Secret). Unset: a password is generated and printed "
                    + "once on standard output.", null, SettingType.NON_EMPTY);

    public static final Setting<List<String>> BOOTSTRAP_ENVIRONMENT_URLS = Setting.of(
            "pylon.manager.bootstrap.environment-urls",
            "module=URL pairs (manager, worker, cache, integration, portal). When set and the environment named by "
                    + "pylon.environment.name does not exist, it is created at start-up with the ID pylon.environment.id.",
            List.of(), SettingType.LIST);

    public static final Setting<String> BOOTSTRAP_ENVIRONMENT_TYPE = Setting.of(
            "pylon.manager.bootstrap.environment-type",
            "Type of the environment created from pylon.manager.bootstrap.environment-urls (local, development, test, "
                    + "staging or production).", "development", SettingType.NON_EMPTY);

    public static final Setting<Duration> AUDIT_RETENTION = Setting.of("pylon.manager.audit.retention",
            "How long audit events are kept.", Duration.ofDays(90), SettingType.DURATION_TYPE);

    public static List<Setting<?>> all() {
        return List.of(DB_URL, DB_USER, DB_PASSWORD, DB_POOL_SIZE, TOKEN_LIFETIME, TOKEN_CHECK_CACHE, MAX_FAILURES,
                LOCK_DURATION, ARGON2_MEMORY, ARGON2_ITERATIONS, ARGON2_PARALLELISM, ADMIN_USERNAME, ADMIN_PASSWORD,
                BOOTSTRAP_ENVIRONMENT_URLS, BOOTSTRAP_ENVIRONMENT_TYPE, AUDIT_RETENTION);
    }
}
