package io.pylon.manager.portal;

import io.pylon.manager.db.Jdbc;
import org.jspecify.annotations.Nullable;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Applications, their subscriptions and API keys, the proxies published to the Portal, and the key set's version
 * (bumped in the same transaction as every change a Worker's key check must see). Thread-safe (the pool is).
 */
public final class ApplicationStore {
    private final Jdbc jdbc;

    public ApplicationStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    public record Application(String id, String developerId, String name, Instant createdAt) {
    }

    public record Subscription(String id, String applicationId, String proxy, String status, Instant createdAt,
                               String developerId, @Nullable String plan) {
    }

    public record ApiKey(String id, String applicationId, String prefix, Instant createdAt, @Nullable Instant revokedAt) {
    }

    /**
     * One live key as Workers see it: its hash, the status of each subscription of its application and the plan of
     * those that have one (proxy -> plan name).
     */
    public record KeyEntry(String hash, String applicationId, Map<String, String> subscriptions,
                           Map<String, String> plans) {
    }

    /** The key set as one transaction read it: its version, the live keys and the plans they refer to. */
    public record KeySetRead(long version, List<KeyEntry> keys, List<Plan> plans) {
    }

    public void insertApplication(Application a) {
        jdbc.update("INSERT INTO applications (id, developer_id, name, created_at) VALUES (?, ?, ?, ?)",
                a.id(), a.developerId(), a.name(), a.createdAt());
    }

    public int countApplications(String developerId) {
        return jdbc.queryOne("SELECT COUNT(*) FROM applications WHERE developer_id = ?", rs -> rs.getInt(1),
                developerId).orElse(0);
    }

    public List<Application> applications(String developerId) {
        return jdbc.query("SELECT id, developer_id, name, created_at FROM applications WHERE developer_id = ? "
                + "ORDER BY created_at, id", rs -> new Application(rs.getString(1), rs.getString(2), rs.getString(3),
                Jdbc.requiredInstant(rs, "created_at")), developerId);
    }

    public Optional<Application> application(String id) {
        return jdbc.queryOne("SELECT id, developer_id, name, created_at FROM applications WHERE id = ?",
                rs -> new Application(rs.getString(1), rs.getString(2), rs.getString(3),
                        Jdbc.requiredInstant(rs, "created_at")), id);
    }

    /** @return false when the application already subscribes to the proxy */
    public boolean insertSubscription(String id, String applicationId, String proxy, String status, Instant now) {
        try {
            jdbc.inTransaction(c -> {
                Jdbc.update(c, "INSERT INTO subscriptions (id, application_id, proxy_name, status, created_at, "
                        + "updated_at) VALUES (?, ?, ?, ?, ?, ?)", id, applicationId, proxy, status, now, now);
                return bump(c);
            });
            return true;
        } catch (RuntimeException e) {
            if (Jdbc.isDuplicateKey(e)) {
                return false;
            }
            throw e;
        }
    }

    private static final String SUBSCRIPTION = "SELECT s.id, s.application_id, s.proxy_name, s.status, s.created_at, "
            + "a.developer_id, s.plan_name FROM subscriptions s JOIN applications a ON a.id = s.application_id";

    public List<Subscription> subscriptions(String applicationId) {
        return jdbc.query(SUBSCRIPTION + " WHERE s.application_id = ? ORDER BY s.proxy_name",
                ApplicationStore::subscription, applicationId);
    }

    /** A subscription as admins see it: with its application's name and its developer's e-mail. */
    public record SubscriptionView(String id, String applicationId, String applicationName, String developerId,
                                   String developerEmail, String proxy, String status, @Nullable String plan,
                                   Instant createdAt, Instant updatedAt) {
    }

    /** Subscriptions newest first, all or those of one status. */
    public List<SubscriptionView> allSubscriptions(String status, int limit) {
        String sql = "SELECT s.id, s.application_id, a.name, a.developer_id, d.email, s.proxy_name, s.status, "
                + "s.plan_name, s.created_at, s.updated_at FROM subscriptions s JOIN applications a ON a.id = s.application_id "
                + "JOIN developers d ON d.id = a.developer_id" + (status == null ? "" : " WHERE s.status = ?")
                + " ORDER BY s.created_at DESC, s.id FETCH FIRST " + limit + " ROWS ONLY";
        Object[] parameters = status == null ? new Object[0] : new Object[]{status};
        return jdbc.query(sql, rs -> new SubscriptionView(rs.getString(1), rs.getString(2), rs.getString(3),
                rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8),
                Jdbc.requiredInstant(rs, "created_at"), Jdbc.requiredInstant(rs, "updated_at")), parameters);
    }

    /** How many applications and live keys each developer holds: {developer id: [applications, live keys]}. */
    public Map<String, int[]> holdings() {
        Map<String, int[]> map = new LinkedHashMap<>();
        jdbc.query("SELECT a.developer_id, COUNT(DISTINCT a.id), COUNT(k.id) FROM applications a LEFT JOIN api_keys k "
                + "ON k.application_id = a.id AND k.revoked_at IS NULL GROUP BY a.developer_id",
                rs -> map.put(rs.getString(1), new int[]{rs.getInt(2), rs.getInt(3)}));
        return map;
    }

    public Optional<Subscription> subscription(String id) {
        return jdbc.queryOne(SUBSCRIPTION + " WHERE s.id = ?", ApplicationStore::subscription, id);
    }

    private static Subscription subscription(java.sql.ResultSet rs) throws SQLException {
        return new Subscription(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                Jdbc.requiredInstant(rs, "created_at"), rs.getString(6), rs.getString(7));
    }

    public boolean setSubscriptionStatus(String id, String status, Instant now) {
        return jdbc.inTransaction(c -> {
            int changed = Jdbc.update(c, "UPDATE subscriptions SET status = ?, updated_at = ? WHERE id = ?",
                    status, now, id);
            bump(c);
            return changed == 1;
        });
    }

    public void insertKey(String id, String applicationId, String hash, String prefix, Instant now) {
        jdbc.inTransaction(c -> {
            Jdbc.update(c, "INSERT INTO api_keys (id, application_id, key_hash, prefix, created_at) VALUES "
                    + "(?, ?, ?, ?, ?)", id, applicationId, hash, prefix, now);
            return bump(c);
        });
    }

    public List<ApiKey> keys(String applicationId) {
        return jdbc.query("SELECT id, application_id, prefix, created_at, revoked_at FROM api_keys WHERE "
                + "application_id = ? ORDER BY created_at, id", rs -> new ApiKey(rs.getString(1), rs.getString(2),
                rs.getString(3), Jdbc.requiredInstant(rs, "created_at"), Jdbc.instant(rs, "revoked_at")), applicationId);
    }

    /** @return false when no live key of that id belongs to the application */
    public boolean revokeKey(String applicationId, String keyId, Instant now) {
        return jdbc.inTransaction(c -> {
            int changed = Jdbc.update(c, "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND application_id = ? "
                    + "AND revoked_at IS NULL", now, keyId, applicationId);
            bump(c);
            return changed == 1;
        });
    }

    /** Revokes a live key and inserts its successor in one transaction; false (nothing changed) when it is not live. */
    public boolean rotateKey(String applicationId, String oldKeyId, String newId, String hash, String prefix,
                             Instant now) {
        return jdbc.inTransaction(c -> {
            int revoked = Jdbc.update(c, "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND application_id = ? "
                    + "AND revoked_at IS NULL", now, oldKeyId, applicationId);
            if (revoked != 1) {
                return false;
            }
            Jdbc.update(c, "INSERT INTO api_keys (id, application_id, key_hash, prefix, created_at) VALUES "
                    + "(?, ?, ?, ?, ?)", newId, applicationId, hash, prefix, now);
            bump(c);
            return true;
        });
    }

    /** Every change to developers' standing (a disabled developer's keys stop) bumps the version too. */
    public void bumpVersion() {
        jdbc.inTransaction(ApplicationStore::bump);
    }

    static long bump(Connection c) throws SQLException {
        Jdbc.update(c, "UPDATE key_set_version SET version = version + 1 WHERE id = 1");
        return Jdbc.query(c, "SELECT version FROM key_set_version WHERE id = 1", rs -> rs.getLong(1)).getFirst();
    }

    public long version() {
        return jdbc.queryOne("SELECT version FROM key_set_version WHERE id = 1", rs -> rs.getLong(1)).orElse(0L);
    }

    /**
     * The live keys (not revoked, of active developers) with their subscriptions and plans, read with the version in
     * one transaction so they are consistent.
     */
    public KeySetRead keySet() {
        return jdbc.inTransaction(c -> {
            long version = Jdbc.query(c, "SELECT version FROM key_set_version WHERE id = 1", rs -> rs.getLong(1))
                    .getFirst();
            Map<String, String> keyApp = new LinkedHashMap<>();
            for (String[] row : Jdbc.query(c, "SELECT k.key_hash, k.application_id FROM api_keys k JOIN applications a "
                    + "ON a.id = k.application_id JOIN developers d ON d.id = a.developer_id WHERE k.revoked_at IS NULL "
                    + "AND d.status = 'active' ORDER BY k.key_hash", rs -> new String[]{rs.getString(1), rs.getString(2)})) {
                keyApp.put(row[0], row[1]);
            }
            Map<String, Map<String, String>> subscriptions = new LinkedHashMap<>();
            Map<String, Map<String, String>> plans = new LinkedHashMap<>();
            for (String[] row : Jdbc.query(c, "SELECT application_id, proxy_name, status, plan_name FROM subscriptions "
                    + "ORDER BY proxy_name", rs -> new String[]{rs.getString(1), rs.getString(2), rs.getString(3),
                    rs.getString(4)})) {
                subscriptions.computeIfAbsent(row[0], k -> new LinkedHashMap<>()).put(row[1], row[2]);
                if (row[3] != null) {
                    plans.computeIfAbsent(row[0], k -> new LinkedHashMap<>()).put(row[1], row[3]);
                }
            }
            List<KeyEntry> entries = keyApp.entrySet().stream().map(e -> new KeyEntry(e.getKey(), e.getValue(),
                    subscriptions.getOrDefault(e.getValue(), Map.of()), plans.getOrDefault(e.getValue(), Map.of())))
                    .toList();
            List<Plan> planList = Jdbc.query(c, "SELECT name, requests, per, proxy_name FROM plans ORDER BY name",
                    PlanStore::plan);
            return new KeySetRead(version, entries, planList);
        });
    }

    /**
     * What lets the Portal's "Try it" through a Worker's CORS check: the published proxies and the Portal origin of
     * each environment that names a Portal URL.
     */
    public record PortalAccess(List<String> published, Map<String, String> origins) {
    }

    public PortalAccess portalAccess() {
        return jdbc.inTransaction(c -> {
            List<String> published = Jdbc.query(c, "SELECT proxy_name FROM portal_publications ORDER BY proxy_name",
                    rs -> rs.getString(1));
            Map<String, String> origins = new LinkedHashMap<>();
            for (String[] row : Jdbc.query(c, "SELECT name, portal_url FROM environments WHERE portal_url IS NOT NULL "
                    + "ORDER BY name", rs -> new String[]{rs.getString(1), rs.getString(2)})) {
                String origin = WebOrigin.of(row[1]);
                if (origin != null) {
                    origins.put(row[0], origin);
                }
            }
            return new PortalAccess(published, origins);
        });
    }

    public Optional<Boolean> publication(String proxy) {
        return jdbc.queryOne("SELECT auto_approve FROM portal_publications WHERE proxy_name = ?",
                rs -> rs.getBoolean(1), proxy);
    }

    public Map<String, Boolean> publications() {
        Map<String, Boolean> map = new LinkedHashMap<>();
        jdbc.query("SELECT proxy_name, auto_approve FROM portal_publications ORDER BY proxy_name",
                rs -> map.put(rs.getString(1), rs.getBoolean(2)));
        return map;
    }

    /** Publishing changes the key set: it carries which proxies admit the Portal's origin. */
    public void publish(String proxy, boolean autoApprove, Instant now) {
        jdbc.inTransaction(c -> {
            int written = Jdbc.update(c, "UPDATE portal_publications SET auto_approve = ?, updated_at = ? WHERE "
                    + "proxy_name = ?", autoApprove, now, proxy);
            if (written == 0) {
                written = Jdbc.update(c, "INSERT INTO portal_publications (proxy_name, auto_approve, updated_at) "
                        + "VALUES (?, ?, ?)", proxy, autoApprove, now);
            }
            bump(c);
            return written;
        });
    }

    public boolean unpublish(String proxy) {
        return jdbc.inTransaction(c -> {
            int removed = Jdbc.update(c, "DELETE FROM portal_publications WHERE proxy_name = ?", proxy);
            bump(c);
            return removed == 1;
        });
    }
}
