package io.pylon.manager.db;

import org.jspecify.annotations.Nullable;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The few JDBC moves every store makes; SQL failures become {@link DataAccessException}. A write ({@link #update},
 * {@link #inTransaction}) returns only after its {@link CommitSync}, so what a caller acknowledges is durable.
 * Immutable; used concurrently, each call on its own pooled connection.
 */
public final class Jdbc {
    private final DataSource dataSource;
    private final CommitSync commitSync;

    /** Writes without a sync of their own: for a database that makes commits durable itself (PostgreSQL). */
    public Jdbc(DataSource dataSource) {
        this(dataSource, CommitSync.NONE);
    }

    public Jdbc(DataSource dataSource, CommitSync commitSync) {
        this.dataSource = dataSource;
        this.commitSync = commitSync;
    }

    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** One statement in its own transaction (auto-commit), durable when it returns. */
    public int update(String sql, @Nullable Object... params) {
        return inConnection(c -> {
            int count = update(c, sql, params);
            if (count > 0) {
                commitSync.afterCommit(c);
            }
            return count;
        });
    }

    public static int update(Connection connection, String sql, @Nullable Object... params) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, params);
            return statement.executeUpdate();
        }
    }

    public <T> List<T> query(String sql, RowMapper<T> mapper, Object... params) {
        return inConnection(c -> query(c, sql, mapper, params));
    }

    public static <T> List<T> query(Connection connection, String sql, RowMapper<T> mapper, Object... params) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, params);
            try (ResultSet rs = statement.executeQuery()) {
                List<T> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(mapper.map(rs));
                }
                return rows;
            }
        }
    }

    public <T> Optional<T> queryOne(String sql, RowMapper<T> mapper, Object... params) {
        List<T> rows = query(sql, mapper, params);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.getFirst());
    }

    public <T> T inConnection(Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new DataAccessException(e);
        }
    }

    /** Runs the work in one transaction, committed when it returns, rolled back when it throws. */
    public <T> T inTransaction(Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                commitSync.afterCommit(connection);
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new DataAccessException(e);
        }
    }

    private static void bind(PreparedStatement statement, @Nullable Object[] params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            Object value = params[i];
            if (value instanceof Instant instant) {
                statement.setObject(i + 1, instant.atOffset(ZoneOffset.UTC));
            } else {
                statement.setObject(i + 1, value);
            }
        }
    }

    /** A time column as an Instant (null stays null). */
    public static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** A time column declared NOT NULL as an Instant. */
    public static Instant requiredInstant(ResultSet rs, String column) throws SQLException {
        Instant value = instant(rs, column);
        if (value == null) {
            throw new SQLException("column " + column + " is NULL although declared NOT NULL");
        }
        return value;
    }

    /** Whether a failure is a unique-key clash (SQLState class 23, integrity constraint violation). */
    public static boolean isDuplicateKey(RuntimeException e) {
        Throwable cause = e instanceof DataAccessException ? e.getCause() : e;
        return cause instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("23");
    }
}
