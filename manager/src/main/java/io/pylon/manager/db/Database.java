package io.pylon.manager.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.pylon.core.config.Settings;
import org.flywaydb.core.Flyway;

import javax.sql.DataSource;
import java.nio.file.Path;

/**
 * The Manager's connection pool, migrated by Flyway on start. Without a configured URL the database is an H2 file
 * under the data directory; with one (PostgreSQL in production) several Manager replicas share it.
 */
public final class Database implements AutoCloseable {
    private final HikariDataSource dataSource;
    private final String product;

    private Database(HikariDataSource dataSource) {
        this.dataSource = dataSource;
        this.product = productOf(dataSource.getJdbcUrl());
    }

    public static Database open(Settings settings, Path dataDir) {
        return open(settings, dataDir, null);
    }

    /** @param meters where HikariCP registers its {@code hikaricp_connections_*} meters; null for none */
    public static Database open(Settings settings, Path dataDir, io.micrometer.core.instrument.MeterRegistry meters) {
        String url = settings.get(DatabaseSettings.URL);
        String user = settings.get(DatabaseSettings.USER);
        String password = settings.get(DatabaseSettings.PASSWORD);
        if (url == null) {
            url = h2Url(dataDir);
            user = user == null ? "pylon" : user;
            password = password == null ? "" : password;
        }
        return open(url, user, password, settings.get(DatabaseSettings.POOL_SIZE), meters);
    }

    public static String h2Url(Path dataDir) {
        return "jdbc:h2:file:" + dataDir.resolve("manager").toAbsolutePath() + ";DB_CLOSE_ON_EXIT=FALSE";
    }

    public static Database open(String url, String user, String password, int poolSize) {
        return open(url, user, password, poolSize, null);
    }

    private static Database open(String url, String user, String password, int poolSize,
                                 io.micrometer.core.instrument.MeterRegistry meters) {
        HikariConfig config = new HikariConfig();
        if (meters != null) {
            config.setMetricRegistry(meters);
        }
        config.setPoolName("manager-db");
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(Math.min(2, poolSize));
        config.setConnectionTimeout(5_000);
        config.setValidationTimeout(2_000);
        config.setInitializationFailTimeout(30_000);
        HikariDataSource dataSource = new HikariDataSource(config);
        try {
            Flyway.configure()
                    .dataSource(dataSource)
                    .locations("classpath:db/migration")
                    .load()
                    .migrate();
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
        return new Database(dataSource);
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public HikariDataSource pool() {
        return dataSource;
    }

    /** {@code h2} or {@code postgresql}: what readiness reports, never the URL (it may carry credentials). */
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
