package io.pylon.manager.portal;

import org.jspecify.annotations.Nullable;

import io.pylon.core.http.Json;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The key set Workers check API keys against, as this replica serves it: {@code {"version", "keys": [{"hash",
 * "application", "subscriptions": {proxy: status}, "plans": {proxy: plan}}], "plans": {plan: {"requests", "per"}},
 * "portal": {"published": [proxy], "origins": {environment: origin}}}} (SHA-256 hashes only, never a key; a key's
 * {@code plans} only when a subscription has one; the published proxies admit their environment's Portal origin). A
 * change on this replica reloads it at once and wakes the parked long-polls; {@link #refresh()}, run every few hundred milliseconds, picks
 * up changes another replica made (one single-row query). Thread-safe: a volatile immutable snapshot and a future
 * that a change completes and replaces.
 */
public final class KeySetWatch {
    private static final System.Logger LOG = System.getLogger(KeySetWatch.class.getName());

    /** A key set and the bytes a Worker receives. */
    public record Current(long version, byte[] json) {
    }

    private final ApplicationStore store;
    private volatile @Nullable Current current;
    private volatile CompletableFuture<Void> changed = new CompletableFuture<>();

    public KeySetWatch(ApplicationStore store) {
        this.store = store;
    }

    public Current current() {
        Current known = current;
        return known != null ? known : reload();
    }

    /** A change this replica just committed. */
    public void changed() {
        reload();
    }

    /** Picks up changes another replica committed. */
    public void refresh() {
        try {
            Current known = current;
            if (known == null || store.version() > known.version()) {
                reload();
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Key set refresh failed: " + e.getMessage());
        }
    }

    /** Reads the key set when it is newer than the one held, and returns the one held then. */
    private synchronized Current reload() {
        ApplicationStore.KeySetRead set = store.keySet();
        Current known = current;
        if (known != null && known.version() >= set.version()) {
            return known;
        }
        ApplicationStore.PortalAccess portal = store.portalAccess();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("version", set.version());
        body.put("keys", set.keys().stream().map(k -> k.plans().isEmpty()
                ? Map.of("hash", k.hash(), "application", k.applicationId(), "subscriptions", k.subscriptions())
                : Map.of("hash", k.hash(), "application", k.applicationId(), "subscriptions", k.subscriptions(),
                "plans", k.plans())).toList());
        Map<String, Object> plans = new LinkedHashMap<>();
        for (Plan plan : set.plans()) {
            plans.put(plan.name(), Map.of("requests", plan.requests(), "per", plan.per()));
        }
        body.put("plans", plans);
        body.put("portal", Map.of("published", portal.published(), "origins", portal.origins()));
        Current fresh = new Current(set.version(), Json.bytes(body));
        current = fresh;
        CompletableFuture<Void> previous = changed;
        changed = new CompletableFuture<>();
        previous.complete(null);
        return fresh;
    }

    /** Waits until the version is not {@code known}, or {@code timeout} passes; answers what is current then. */
    public Current await(long known, Duration timeout) throws InterruptedException {
        CompletableFuture<Void> change = changed;
        Current now = current();
        if (now.version() != known || timeout.isZero()) {
            return now;
        }
        try {
            change.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // the wait ran out: answer what is current
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
        return current();
    }
}
