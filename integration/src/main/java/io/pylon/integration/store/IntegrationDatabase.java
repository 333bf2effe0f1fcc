package io.pylon.integration.store;

import org.jspecify.annotations.Nullable;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

import javax.sql.DataSource;
import java.nio.file.Path;

/**
 * The Integration pods' database: flows, run history and the scheduler's table, migrated by Flyway on start with a
 * history table of its own ({@code integration_schema_history}) and migrations from V100 on, so that it may live in
 * the same PostgreSQL database as the Manager's tables without the two modules' migrations meeting. Without a URL it
 * is an H2 file under the pod's data directory (one pod); {@code pylon up}'s pods share one H2 file in H2's automatic
 * mixed mode ({@link #h2SharedUrl}, docs/integration.md), production pods a PostgreSQL database.
 */
public final class IntegrationDatabase implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(IntegrationDatabase.class.getName());
    private static final int MIGRATE_ATTEMPTS = 5;
    private static final long MIGRATE_RETRY_MILLIS = 1_000;
    private final HikariDataSource dataSource;
    private final String product;

    private IntegrationDatabase(HikariDataSource dataSource) {
        this.dataSource = dataSource;
        this.product = productOf(dataSource.getJdbcUrl());
    }

    /** The embedded default: committed writes reach the file before they return (they survive kill -9). */
    public static String h2Url(Path dataDir) {
        return "jdbc:h2:file:" + dataDir.resolve("integration").toAbsolutePath()
                + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0;LOCK_TIMEOUT=10000";
    }

    /**
     * One H2 file that the Integration pods of one machine share ({@code pylon up}): the first pod to open it serves it
     * to the others over TCP ({@code AUTO_SERVER}); when that pod dies, the others reconnect and one of them serves it.
     */
    public static String h2SharedUrl(Path dir) {
        // H2 refuses DB_CLOSE_ON_EXIT=FALSE in this mode: the serving pod's JVM closes the file at exit
        return "jdbc:h2:file:" + dir.resolve("integration").toAbsolutePath() + ";AUTO_SERVER=TRUE;WRITE_DELAY=0;LOCK_TIMEOUT=10000";
    }

    /** The lock file of {@link #h2SharedUrl}'s database, which names the address of the pod serving it. */
    public static Path h2SharedLockFile(Path dir) {
        return dir.resolve("integration.lock.db");
    }

    /** Whether {@code url} is H2 in automatic mixed mode, whose pod may serve the database over TCP. */
    public static boolean servesOverTcp(String url) {
        return url.startsWith("jdbc:h2:") && url.toUpperCase(java.util.Locale.ROOT).contains(";AUTO_SERVER=TRUE");
    }

    /** @param meters where HikariCP registers its meters; null for none */
    public static IntegrationDatabase open(String url, @Nullable String user, @Nullable String password, int poolSize,
                                           io.micrometer.core.instrument.@Nullable MeterRegistry meters) {
        HikariConfig config = new HikariConfig();
        if (meters != null) {
            config.setMetricRegistry(meters);
        }
        config.setPoolName("integration-db");
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(Math.min(2, poolSize));
        config.setConnectionTimeout(10_000);
        config.setValidationTimeout(2_000);
        config.setInitializationFailTimeout(30_000);
        HikariDataSource dataSource = new HikariDataSource(config);
        try {
            migrate(Flyway.configure()
                    .dataSource(dataSource)
                    .table("integration_schema_history")
                    .baselineOnMigrate(true)
                    .baselineVersion("99")
                    .locations("classpath:db/integration/" + (productOf(url).equals("postgresql") ? "postgresql" : "h2"))
                    .load());
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
        return new IntegrationDatabase(dataSource);
    }

    /**
     * Pods that start together on a database nobody migrated yet race for Flyway's history table: one creates it and
     * migrates, another finds it empty and refuses to baseline ("already exists, and is empty"). Asked again a moment
     * later, Flyway finds the history and waits on its lock for a migration in progress.
     */
    private static void migrate(Flyway flyway) {
        for (int attempt = 1; ; attempt++) {
            try {
                flyway.migrate();
                return;
            } catch (FlywayException e) {
                if (attempt == MIGRATE_ATTEMPTS) {
                    throw e;
                }
                LOG.log(System.Logger.Level.INFO, "Migrating the Integration tables failed, as when another pod "
                        + "creates them at the same moment; trying again: " + e.getMessage());
                try {
                    Thread.sleep(MIGRATE_RETRY_MILLIS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /** {@code h2} or {@code postgresql}; never the URL (it may carry credentials). */
    public String product() {
        return product;
    }

    private static String productOf(String url) {
        String rest = url.startsWith("jdbc:") ? url.substring(5) : url;
        int colon = rest.indexOf(':');
        return colon > 0 ? rest.substring(0, colon) : "unknown";
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
