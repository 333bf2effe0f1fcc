package io.pylon.manager.deployments;

import org.jspecify.annotations.Nullable;

import io.pylon.gateway.model.RenderedBundle;
import io.pylon.manager.db.Jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Deployments ({@code deployments}, {@code deployment_proxies}) and the Worker pods' reports ({@code gateway_pods}).
 * History is never rewritten: a deployment row is inserted once, with the next number of its environment.
 */
public final class DeploymentStore {
    private static final String COLUMNS = "environment, version, sha256, kind, from_version, author, created_at, comment";

    private final Jdbc jdbc;

    public DeploymentStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Inserts {@code bundle} as the next version; false when another deployment took that number first. */
    public boolean insert(String environment, RenderedBundle bundle, Map<String, Integer> snapshot, String kind,
                          @Nullable Long fromVersion, String author, Instant now, String comment) {
        try {
            return jdbc.inTransaction(c -> {
                Jdbc.update(c, "INSERT INTO deployments (environment, version, bundle, sha256, kind, from_version, "
                                + "author, created_at, comment) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", environment,
                        bundle.version(), new String(bundle.json(), StandardCharsets.UTF_8), bundle.sha256(), kind,
                        fromVersion, author, now, comment);
                for (Map.Entry<String, Integer> entry : snapshot.entrySet()) {
                    Jdbc.update(c, "INSERT INTO deployment_proxies (environment, version, name, revision) "
                            + "VALUES (?, ?, ?, ?)", environment, bundle.version(), entry.getKey(), entry.getValue());
                }
                return true;
            });
        } catch (RuntimeException e) {
            if (Jdbc.isDuplicateKey(e)) {
                return false;
            }
            throw e;
        }
    }

    public Optional<Deployment> latest(String environment) {
        return jdbc.inConnection(c -> {
            List<Deployment> rows = Jdbc.query(c, "SELECT " + COLUMNS + " FROM deployments WHERE environment = ? "
                    + "ORDER BY version DESC LIMIT 1", DeploymentStore::map, environment);
            return rows.isEmpty() ? Optional.empty() : Optional.of(withProxies(c, rows.getFirst()));
        });
    }

    public Optional<Deployment> find(String environment, long version) {
        return jdbc.inConnection(c -> {
            List<Deployment> rows = Jdbc.query(c, "SELECT " + COLUMNS + " FROM deployments WHERE environment = ? "
                    + "AND version = ?", DeploymentStore::map, environment, version);
            return rows.isEmpty() ? Optional.empty() : Optional.of(withProxies(c, rows.getFirst()));
        });
    }

    /** The newest {@code limit} deployments of an environment, newest first, without their snapshots. */
    public List<Deployment> history(String environment, int limit) {
        return jdbc.query("SELECT " + COLUMNS + " FROM deployments WHERE environment = ? ORDER BY version DESC "
                + "LIMIT " + limit, DeploymentStore::map, environment);
    }

    /** How many proxies each version from {@code from} to {@code to} deployed: one grouped query for a history page. */
    public Map<Long, Integer> proxyCounts(String environment, long from, long to) {
        Map<Long, Integer> counts = new LinkedHashMap<>();
        jdbc.query("SELECT version, COUNT(*) FROM deployment_proxies WHERE environment = ? AND version >= ? "
                + "AND version <= ? GROUP BY version", rs -> counts.put(rs.getLong(1), rs.getInt(2)), environment, from, to);
        return counts;
    }

    public Optional<byte[]> bundle(String environment, long version) {
        return jdbc.queryOne("SELECT bundle FROM deployments WHERE environment = ? AND version = ?",
                rs -> rs.getString(1).getBytes(StandardCharsets.UTF_8), environment, version);
    }

    /** The newest version of every environment that has one: one cheap query, run often by each replica. */
    public Map<String, Long> latestVersions() {
        Map<String, Long> versions = new LinkedHashMap<>();
        jdbc.query("SELECT environment, MAX(version) FROM deployments GROUP BY environment",
                rs -> versions.put(rs.getString(1), rs.getLong(2)));
        return versions;
    }

    /** Where a proxy is deployed now: environment -> revision, from each environment's latest deployment. */
    public Map<String, Integer> deployedRevisions(String name) {
        Map<String, Integer> map = new LinkedHashMap<>();
        jdbc.query("SELECT p.environment, p.revision FROM deployment_proxies p JOIN (SELECT environment, "
                + "MAX(version) AS version FROM deployments GROUP BY environment) l ON l.environment = p.environment "
                + "AND l.version = p.version WHERE p.name = ? ORDER BY p.environment",
                rs -> map.put(rs.getString(1), rs.getInt(2)), name);
        return map;
    }

    private static Deployment withProxies(Connection c, Deployment d) throws SQLException {
        Map<String, Integer> proxies = new LinkedHashMap<>();
        Jdbc.query(c, "SELECT name, revision FROM deployment_proxies WHERE environment = ? AND version = ? "
                + "ORDER BY name", rs -> proxies.put(rs.getString(1), rs.getInt(2)), d.environment(), d.version());
        return new Deployment(d.environment(), d.version(), d.sha256(), d.kind(), d.fromVersion(), d.author(),
                d.createdAt(), d.comment(), proxies);
    }

    private static Deployment map(ResultSet rs) throws SQLException {
        long from = rs.getLong("from_version");
        Long fromVersion = rs.wasNull() ? null : from;
        return new Deployment(rs.getString("environment"), rs.getLong("version"), rs.getString("sha256"),
                rs.getString("kind"), fromVersion, rs.getString("author"),
                Jdbc.requiredInstant(rs, "created_at"), rs.getString("comment"), Map.of());
    }

    /** Records a pod's poll: what it serves, where from, what it refused. */
    public void report(GatewayPod pod) {
        Object[] values = {pod.podIp(), pod.appliedVersion(), pod.appliedHash(), pod.source(), pod.rejectedVersion(),
                pod.lastError(), pod.lastContact(), pod.environment(), pod.podName()};
        int updated = jdbc.update("UPDATE gateway_pods SET pod_ip = ?, applied_version = ?, applied_hash = ?, "
                + "source = ?, rejected_version = ?, last_error = ?, last_contact = ? WHERE environment = ? "
                + "AND pod_name = ?", values);
        if (updated == 0) {
            try {
                jdbc.update("INSERT INTO gateway_pods (pod_ip, applied_version, applied_hash, source, rejected_version, "
                        + "last_error, last_contact, environment, pod_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", values);
            } catch (RuntimeException e) {
                if (!Jdbc.isDuplicateKey(e)) {
                    throw e;
                }
                jdbc.update("UPDATE gateway_pods SET pod_ip = ?, applied_version = ?, applied_hash = ?, source = ?, "
                        + "rejected_version = ?, last_error = ?, last_contact = ? WHERE environment = ? "
                        + "AND pod_name = ?", values);
            }
        }
    }

    public List<GatewayPod> pods(String environment) {
        return jdbc.query("SELECT environment, pod_name, pod_ip, applied_version, applied_hash, source, "
                + "rejected_version, last_error, last_contact FROM gateway_pods WHERE environment = ? ORDER BY pod_name",
                rs -> {
                    long applied = rs.getLong("applied_version");
                    Long appliedVersion = rs.wasNull() ? null : applied;
                    long rejected = rs.getLong("rejected_version");
                    Long rejectedVersion = rs.wasNull() ? null : rejected;
                    return new GatewayPod(rs.getString("environment"), rs.getString("pod_name"), rs.getString("pod_ip"),
                            appliedVersion, rs.getString("applied_hash"), rs.getString("source"), rejectedVersion,
                            rs.getString("last_error"), Jdbc.requiredInstant(rs, "last_contact"));
                }, environment);
    }

    /** Forgets one pod (it said it is stopping). */
    public void forgetPod(String environment, String podName) {
        jdbc.update("DELETE FROM gateway_pods WHERE environment = ? AND pod_name = ?", environment, podName);
    }

    /** Forgets pods not heard from since {@code before} (scaled down or replaced). */
    public int forgetPods(Instant before) {
        return jdbc.update("DELETE FROM gateway_pods WHERE last_contact < ?", before);
    }
}
