package io.pylon.manager.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.pylon.core.config.Settings;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The Manager's connection pool, migrated by Flyway on start. Without a configured URL the database is an H2 file
 * under the data directory; with one (PostgreSQL in production) several Manager replicas share it. Every write made
 * through {@link #jdbc()} is durable when it returns (see {@link CommitSync} and docs/security.md).
 */
public final class Database implements AutoCloseable {
    private final HikariDataSource dataSource;
    private final String product;
    private final Jdbc jdbc;

    private Database(HikariDataSource dataSource, CommitSync commitSync) {
        this.dataSource = dataSource;
        this.product = productOf(dataSource.getJdbcUrl());
        this.jdbc = new Jdbc(dataSource, commitSync);
    }

    public static Database open(Settings settings, Path dataDir) {
        return open(settings, dataDir, null);
    }

    /** @param meters where HikariCP registers its {@code hikaricp_connections_*} meters; null for none */
    public static Database open(Settings settings, Path dataDir, io.micrometer.core.instrument.@Nullable MeterRegistry meters) {
        String url = settings.find(DatabaseSettings.URL);
        String user = settings.find(DatabaseSettings.USER);
        String password = settings.find(DatabaseSettings.PASSWORD);
        if (url == null) {
            url = h2Url(dataDir);
            user = user == null ? "pylon" : user;
            password = password == null ? "" : password;
            restrictH2Files(dataDir); // a database an earlier version created 0644
            Database database = open(url, user, password, settings.get(DatabaseSettings.POOL_SIZE),
                    settings.get(DatabaseSettings.H2_SYNC), meters);
            restrictH2Files(dataDir); // H2 creates its files with the process's umask
            return database;
        }
        return open(url, user, password, settings.get(DatabaseSettings.POOL_SIZE),
                settings.get(DatabaseSettings.H2_SYNC), meters);
    }

    /**
     * The embedded database's files ({@code manager.mv.db}, its lock and trace files) hold password hashes, token hashes
     * and the environment IDs: owner-only (0600). They lie in the data directory itself (moving them would lose an
     * existing database), so the folder is left as the volume gives it.
     */
    static void restrictH2Files(Path dataDir) {
        try (java.nio.file.DirectoryStream<Path> files = java.nio.file.Files.newDirectoryStream(dataDir, "manager.*")) {
            for (Path file : files) {
                if (java.nio.file.Files.isRegularFile(file)) {
                    io.pylon.core.storage.PrivateFiles.restrictFile(file);
                }
            }
        } catch (java.io.IOException e) {
            // no data directory yet: nothing to restrict
        }
    }

    /**
     * The embedded H2 page cache, in KiB. H2's default is 64 MiB scaled down to the heap (12 MiB in the Manager's
     * 192 MiB): every commit writes a chunk of new pages, which enter the cache, so under token load the cache held
     * every page written in the last minute and each young collection copied 2-4 MB of them (and 6,000-9,000 weak
     * references of its non-resident entries) into the survivor space. 1 MiB holds the tables' inner pages and the
     * recent leaves; a page evicted early is read back from the file (the OS page cache) when needed. See
     * BENCHMARKS.md, "Start-up and memory".
     */
    static final int H2_CACHE_KIB = 1024;

    /**
     * The embedded database. WRITE_DELAY=0: H2's default (500 ms) keeps committed changes in the JVM's memory until
     * a background thread writes them, so a killed process lost writes it had acknowledged; with 0 every commit is
     * written to the file before it returns. CACHE_SIZE: see {@link #H2_CACHE_KIB}.
     */
    public static String h2Url(Path dataDir) {
        return "jdbc:h2:file:" + dataDir.resolve("manager").toAbsolutePath() + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0"
                + ";CACHE_SIZE=" + H2_CACHE_KIB;
    }

    /** A pool on the given URL, H2 commits forced to the disk. */
    public static Database open(String url, String user, String password, int poolSize) {
        return open(url, user, password, poolSize, true, null);
    }

    /** A pool on the given URL; {@code h2Sync}: whether a write to an H2 database is forced to the disk. */
    public static Database open(String url, String user, String password, int poolSize, boolean h2Sync) {
        return open(url, user, password, poolSize, h2Sync, null);
    }

    private static Database open(String url, @Nullable String user, @Nullable String password, int poolSize, boolean h2Sync,
                                 io.micrometer.core.instrument.@Nullable MeterRegistry meters) {
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
        CommitSync commitSync = h2Sync && productOf(url).equals("h2") ? CommitSync.H2_FORCE_TO_DISK : CommitSync.NONE;
        try {
            Flyway.configure()
                    .dataSource(dataSource)
                    .locations("classpath:db/migration")
                    .load()
                    .migrate();
            checkCommitSync(dataSource, commitSync);
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
        return new Database(dataSource, commitSync);
    }

    /** CHECKPOINT SYNC needs an H2 admin: better a clear refusal at start than every write failing later. */
    private static void checkCommitSync(DataSource dataSource, CommitSync commitSync) {
        try (Connection connection = dataSource.getConnection()) {
            commitSync.afterCommit(connection);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot force the H2 database to the disk (CHECKPOINT SYNC, SQL state "
                    + e.getSQLState() + "; it needs an H2 admin user). Use an admin user or set "
                    + DatabaseSettings.H2_SYNC.key() + "=false.", e);
        }
    }

    /** The way every store reads and writes this database. */
    public Jdbc jdbc() {
        return jdbc;
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
