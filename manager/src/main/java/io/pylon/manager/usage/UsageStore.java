package io.pylon.manager.usage;

import io.pylon.manager.db.Jdbc;
import org.jspecify.annotations.Nullable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Usage per (environment, application, proxy, minute) as Workers report it, and the ids of the reports already
 * counted. A report is counted in one transaction with its id, so a report sent twice adds once. Thread-safe (the
 * pool is; concurrent reports that create the same row are retried).
 */
public final class UsageStore {
    private static final int ATTEMPTS = 3;

    /** One reported count. Latency in microseconds. */
    public record Row(String application, String proxy, Instant minute, long requests, long clientErrors,
                      long serverErrors, long latencyMicrosSum, long latencyMicrosMax) {
    }

    /** Summed counts of one group (a minute, an application, a proxy); an application's name when known. */
    public record Sum(String group, long requests, long clientErrors, long serverErrors, long latencyMicrosSum,
                      long latencyMicrosMax, @Nullable String name) {
        public Sum(String group, long requests, long clientErrors, long serverErrors, long latencyMicrosSum,
                   long latencyMicrosMax) {
            this(group, requests, clientErrors, serverErrors, latencyMicrosSum, latencyMicrosMax, null);
        }
    }

    private final Jdbc jdbc;

    public UsageStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** @return false when the report was counted before (its rows are not added again) */
    public boolean add(String reportId, String environment, List<Row> rows, Instant now) {
        for (int attempt = 1; ; attempt++) {
            try {
                return jdbc.inTransaction(c -> {
                    if (!Jdbc.query(c, "SELECT id FROM usage_reports WHERE id = ?", rs -> rs.getString(1), reportId)
                            .isEmpty()) {
                        return false;
                    }
                    Jdbc.update(c, "INSERT INTO usage_reports (id, received_at) VALUES (?, ?)", reportId, now);
                    addRows(c, environment, rows);
                    return true;
                });
            } catch (RuntimeException e) {
                if (!Jdbc.isDuplicateKey(e) || attempt >= ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private static void addRows(Connection c, String environment, List<Row> rows) throws SQLException {
        List<Row> missing = new ArrayList<>();
        try (PreparedStatement update = c.prepareStatement("UPDATE usage_minutes SET requests = requests + ?, "
                + "client_errors = client_errors + ?, server_errors = server_errors + ?, "
                + "latency_us_sum = latency_us_sum + ?, latency_us_max = GREATEST(latency_us_max, ?) "
                + "WHERE environment = ? AND application_id = ? AND proxy_name = ? AND minute_start = ?")) {
            for (Row row : rows) {
                update.setLong(1, row.requests());
                update.setLong(2, row.clientErrors());
                update.setLong(3, row.serverErrors());
                update.setLong(4, row.latencyMicrosSum());
                update.setLong(5, row.latencyMicrosMax());
                update.setString(6, environment);
                update.setString(7, row.application());
                update.setString(8, row.proxy());
                update.setObject(9, row.minute().atOffset(ZoneOffset.UTC));
                if (update.executeUpdate() == 0) {
                    missing.add(row);
                }
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO usage_minutes (environment, application_id, "
                + "proxy_name, minute_start, requests, client_errors, server_errors, latency_us_sum, latency_us_max) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (Row row : missing) {
                insert.setString(1, environment);
                insert.setString(2, row.application());
                insert.setString(3, row.proxy());
                insert.setObject(4, row.minute().atOffset(ZoneOffset.UTC));
                insert.setLong(5, row.requests());
                insert.setLong(6, row.clientErrors());
                insert.setLong(7, row.serverErrors());
                insert.setLong(8, row.latencyMicrosSum());
                insert.setLong(9, row.latencyMicrosMax());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** What to group by. */
    public enum GroupBy {
        MINUTE("minute_start"), APPLICATION("application_id"), PROXY("proxy_name");

        private final String column;

        GroupBy(String column) {
            this.column = column;
        }
    }

    /** Sums over {@code [from, to)}, restricted to a proxy and/or an application when given, grouped. */
    public List<Sum> sums(GroupBy groupBy, @Nullable String proxy, @Nullable String application, Instant from,
                          Instant to) {
        boolean named = groupBy == GroupBy.APPLICATION;
        StringBuilder sql = new StringBuilder("SELECT ").append(groupBy.column).append(", SUM(requests), "
                + "SUM(client_errors), SUM(server_errors), SUM(latency_us_sum), MAX(latency_us_max)")
                .append(named ? ", MAX(a.name) FROM usage_minutes LEFT JOIN applications a ON a.id = application_id"
                        : " FROM usage_minutes")
                .append(" WHERE minute_start >= ? AND minute_start < ?");
        List<Object> params = new ArrayList<>(List.of(from, to));
        if (proxy != null) {
            sql.append(" AND proxy_name = ?");
            params.add(proxy);
        }
        if (application != null) {
            sql.append(" AND application_id = ?");
            params.add(application);
        }
        sql.append(" GROUP BY ").append(groupBy.column).append(" ORDER BY ").append(groupBy.column);
        return jdbc.query(sql.toString(), rs -> new Sum(groupBy == GroupBy.MINUTE
                        ? Jdbc.requiredInstant(rs, "minute_start").toString() : rs.getString(1), rs.getLong(2), rs.getLong(3),
                        rs.getLong(4), rs.getLong(5), rs.getLong(6), named ? rs.getString(7) : null), params.toArray());
    }

    /** Deletes counts of minutes before {@code before} and report ids received before {@code reportsBefore}. */
    public int prune(Instant before, Instant reportsBefore) {
        int rows = jdbc.update("DELETE FROM usage_minutes WHERE minute_start < ?", before);
        jdbc.update("DELETE FROM usage_reports WHERE received_at < ?", reportsBefore);
        return rows;
    }
}
