package io.pylon.worker.config;

import org.jspecify.annotations.Nullable;

import io.pylon.gateway.model.Bundle;
import io.pylon.gateway.model.CanonicalJson;
import io.pylon.gateway.model.InvalidProxyException;
import io.pylon.gateway.model.KnownProxies;
import io.pylon.gateway.model.ProxyParser;
import io.pylon.worker.routes.RouteTable;

import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The bundle in force on a Worker in manager mode: applied only after it parsed and validated in full, swapped in
 * atomically (a request keeps the table it matched), and refused otherwise with the old one left in force. Before a
 * first bundle {@link #current()} is null (the proxy answers 503, readiness is DOWN). A proxy whose definition is
 * unchanged since the bundle in force is taken as it was, not validated again; the table is built off the request
 * path and swapped in as one reference.
 *
 * <p>Threading: the table is an atomic reference, read by request threads; {@link #apply} is synchronized (the
 * poller, start-up), and is the only writer of the rest, read by diagnostics and metrics through volatiles.
 */
public final class GatewayConfig {
    private static final System.Logger LOG = System.getLogger(GatewayConfig.class.getName());

    /** What is in force: version, hash, where it came from ({@code manager}, {@code disk}, {@code grid}), when. */
    public record Applied(long version, String sha256, String source, Instant at, int routes) {
    }

    /** A bundle refused: its version (null when unreadable) and the reason. */
    public record Rejection(@Nullable Long version, String sha256, String reason, Instant at) {
    }

    private final ProxyParser parser;
    // the proxies in force, so that a bundle's unchanged proxies are not validated again (guarded by this)
    private final KnownProxies known = new KnownProxies();
    private final RouteTable.Listener onLoad;
    private final AtomicReference<RouteTable> table = new AtomicReference<>();
    private volatile @Nullable Applied applied;
    private volatile @Nullable Rejection rejection;
    private final AtomicLong applies = new AtomicLong();
    private final AtomicLong rejections = new AtomicLong();

    public GatewayConfig(ProxyParser parser, RouteTable.Listener onLoad) {
        this.parser = parser;
        this.onLoad = onLoad;
    }

    /** The table in force; null before a first bundle. */
    public @Nullable RouteTable current() {
        return table.get();
    }

    public @Nullable Applied applied() {
        return applied;
    }

    public @Nullable Rejection rejection() {
        return rejection;
    }

    public long applies() {
        return applies.get();
    }

    public long rejections() {
        return rejections.get();
    }

    /**
     * Validates and applies a bundle.
     *
     * @param expectedHash the hash the sender named (the Manager's ETag); null to skip that check (the disk copy)
     * @return the applied state, or null when the bundle was refused (then {@link #rejection()} says why)
     */
    public synchronized @Nullable Applied apply(byte[] json, @Nullable String expectedHash, @Nullable Long announcedVersion,
                                          String source) {
        String sha256 = CanonicalJson.sha256(json);
        if (expectedHash != null && !expectedHash.equalsIgnoreCase(sha256)) {
            return reject(announcedVersion, expectedHash, "The bundle's bytes do not match its hash (truncated or "
                    + "altered on the way)");
        }
        Bundle bundle;
        try {
            bundle = parser.parse(json, true, known);
        } catch (InvalidProxyException e) {
            return reject(announcedVersion, sha256, e.getMessage());
        }
        if (bundle.version() == null) {
            known.refused();
            return reject(announcedVersion, sha256, "The bundle has no version");
        }
        RouteTable next;
        try {
            next = new RouteTable(bundle.routes());
            onLoad.loading(next);
        } catch (InvalidProxyException e) {
            known.refused();
            return reject(bundle.version(), sha256, e.getMessage());
        } catch (RuntimeException e) {
            known.refused();
            throw e;
        }
        table.set(next);
        known.applied();
        Applied now = new Applied(bundle.version(), sha256, source, Instant.now(), next.size());
        applied = now;
        applies.incrementAndGet();
        LOG.log(Level.INFO, "Gateway configuration version " + now.version() + " applied from " + source + ": "
                + now.routes() + " proxies");
        return now;
    }

    /** Records the refusal of a bundle that failed a check made before {@link #apply} (the grid copy's seal). */
    public synchronized @Nullable Applied refuse(@Nullable Long version, String sha256, String reason) {
        return reject(version, sha256, reason);
    }

    private @Nullable Applied reject(@Nullable Long version, String sha256, String reason) {
        Rejection previous = rejection;
        boolean again = previous != null && previous.sha256().equals(sha256) && previous.reason().equals(reason);
        rejection = new Rejection(version, sha256, reason, Instant.now());
        rejections.incrementAndGet();
        // the same bundle refused for the same reason (asked for again after a back-off) is said once
        LOG.log(again ? Level.DEBUG : Level.WARNING, "Gateway configuration "
                + (version == null ? "" : "version " + version + " ") + "refused, the one in force stays: " + reason);
        return null;
    }

    public Map<String, Object> describe() {
        Map<String, Object> map = new LinkedHashMap<>();
        Applied now = applied;
        map.put("appliedVersion", now == null ? null : now.version());
        map.put("hash", now == null ? null : now.sha256());
        map.put("source", now == null ? null : now.source());
        map.put("appliedAt", now == null ? null : now.at().toString());
        map.put("routeCount", now == null ? 0 : now.routes());
        Rejection refused = rejection;
        map.put("rejectedVersion", refused == null ? null : refused.version());
        map.put("rejection", refused == null ? null : refused.reason());
        map.put("rejectedAt", refused == null ? null : refused.at().toString());
        map.put("applies", applies.get());
        map.put("rejections", rejections.get());
        return map;
    }
}
