package io.pylon.manager.portal;

import org.jspecify.annotations.Nullable;

import io.pylon.manager.db.Jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The plans table and which subscription holds which plan. Every change bumps the key set's version in the same
 * transaction, since plans travel to Workers with the key set. Thread-safe (the pool is).
 */
public final class PlanStore {
    private static final String COLUMNS = "SELECT name, requests, per, proxy_name FROM plans";

    private final Jdbc jdbc;

    public PlanStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    static Plan plan(ResultSet rs) throws SQLException {
        return new Plan(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4));
    }

    public List<Plan> list() {
        return jdbc.query(COLUMNS + " ORDER BY name", PlanStore::plan);
    }

    public Optional<Plan> find(String name) {
        return jdbc.queryOne(COLUMNS + " WHERE name = ?", PlanStore::plan, name);
    }

    /** @return true when the plan was created, false when an existing one was changed */
    public boolean put(Plan plan, Instant now) {
        return jdbc.inTransaction(c -> {
            boolean created = Jdbc.update(c, "UPDATE plans SET requests = ?, per = ?, proxy_name = ?, updated_at = ? "
                    + "WHERE name = ?", plan.requests(), plan.per(), plan.proxy(), now, plan.name()) == 0;
            if (created) {
                Jdbc.update(c, "INSERT INTO plans (name, requests, per, proxy_name, created_at, updated_at) VALUES "
                        + "(?, ?, ?, ?, ?, ?)", plan.name(), plan.requests(), plan.per(), plan.proxy(), now, now);
            }
            ApplicationStore.bump(c);
            return created;
        });
    }

    /** Subscriptions holding the plan whose proxy is not {@code proxy} (all of them when it is null: none). */
    public int holdersOutside(String plan, String proxy) {
        return jdbc.queryOne("SELECT COUNT(*) FROM subscriptions WHERE plan_name = ? AND proxy_name <> ?",
                rs -> rs.getInt(1), plan, proxy).orElse(0);
    }

    public int holders(String plan) {
        return jdbc.queryOne("SELECT COUNT(*) FROM subscriptions WHERE plan_name = ?", rs -> rs.getInt(1), plan)
                .orElse(0);
    }

    /** @return false when no such plan */
    public boolean delete(String name) {
        return jdbc.inTransaction(c -> {
            boolean deleted = Jdbc.update(c, "DELETE FROM plans WHERE name = ?", name) == 1;
            ApplicationStore.bump(c);
            return deleted;
        });
    }

    /** Gives a subscription a plan, or none ({@code plan} null). @return false when no such subscription */
    public boolean assign(String subscriptionId, @Nullable String plan, Instant now) {
        return jdbc.inTransaction(c -> {
            int changed = Jdbc.update(c, "UPDATE subscriptions SET plan_name = ?, updated_at = ? WHERE id = ?",
                    plan, now, subscriptionId);
            ApplicationStore.bump(c);
            return changed == 1;
        });
    }
}
