package io.pylon.integration.store;

import org.jspecify.annotations.Nullable;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Statements on the pool, each in its own auto-committed connection use. Stateless and thread-safe. */
final class Sql {
    private final DataSource dataSource;

    Sql(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @FunctionalInterface
    interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    int update(String sql, @Nullable Object... args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException(e);
        }
    }

    /** Inserts and answers the generated key of the named column. */
    long insert(String sql, String keyColumn, @Nullable Object... args) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(sql, new String[]{keyColumn})) {
            bind(ps, args);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        } catch (SQLException e) {
            throw new StoreException(e);
        }
    }

    /** Whether the database is PostgreSQL (else H2), from the driver's own word. */
    boolean postgres() {
        try (Connection c = dataSource.getConnection()) {
            return c.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT).contains("postgres");
        } catch (SQLException e) {
            throw new StoreException(e);
        }
    }

    <T> List<T> query(String sql, Row<T> row, @Nullable Object... args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                List<T> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(row.read(rs));
                }
                return out;
            }
        } catch (SQLException e) {
            throw new StoreException(e);
        }
    }

    <T> @Nullable T one(String sql, Row<T> row, @Nullable Object... args) {
        List<T> rows = query(sql, row, args);
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** A time column declared NOT NULL. */
    static Instant requiredInstant(ResultSet rs, String column) throws SQLException {
        Instant value = instant(rs, column);
        if (value == null) {
            throw new SQLException("column " + column + " is NULL although declared NOT NULL");
        }
        return value;
    }

    /** A {@code SELECT COUNT(*)}: one row, one number. */
    int count(String sql, @Nullable Object... args) {
        Integer n = one(sql, rs -> rs.getInt(1), args);
        return n == null ? 0 : n;
    }

    static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    static @Nullable Integer integer(ResultSet rs, String column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? null : v;
    }

    private static void bind(PreparedStatement ps, @Nullable Object[] args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            Object a = args[i];
            if (a == null) {
                ps.setNull(i + 1, Types.NULL);
            } else if (a instanceof Instant instant) {
                ps.setTimestamp(i + 1, Timestamp.from(instant));
            } else {
                ps.setObject(i + 1, a);
            }
        }
    }
}
