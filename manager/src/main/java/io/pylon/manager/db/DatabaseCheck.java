package io.pylon.manager.db;

import com.zaxxer.hikari.HikariPoolMXBean;
import io.pylon.core.health.CheckResult;
import io.pylon.core.health.HealthCheck;

import java.sql.Connection;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Readiness: the Manager answers nothing useful without its database. */
public final class DatabaseCheck implements HealthCheck {
    private final Database database;

    public DatabaseCheck(Database database) {
        this.database = database;
    }

    @Override
    public String name() {
        return "database";
    }

    @Override
    public Set<Probe> probes() {
        return Set.of(Probe.READINESS);
    }

    @Override
    public CheckResult check() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("database", database.product());
        boolean valid;
        // a query on the Manager's own table, not just Connection.isValid: a reachable but empty or wrong database
        // (schema missing) is not ready either
        try (Connection connection = database.dataSource().getConnection();
             Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(2);
            statement.executeQuery("SELECT 1 FROM users WHERE 1 = 0").close();
            valid = true;
        } catch (Exception e) {
            valid = false;
            details.put("error", e.getClass().getSimpleName());
        }
        HikariPoolMXBean pool = database.pool().getHikariPoolMXBean();
        if (pool != null) {
            details.put("activeConnections", pool.getActiveConnections());
            details.put("idleConnections", pool.getIdleConnections());
            details.put("pendingThreads", pool.getThreadsAwaitingConnection());
        }
        return CheckResult.of(valid, details);
    }
}
