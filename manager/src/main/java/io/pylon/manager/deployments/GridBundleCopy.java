package io.pylon.manager.deployments;

import org.jspecify.annotations.Nullable;

import io.pylon.cache.client.BundleSeal;
import io.pylon.cache.client.ConnectionState;
import io.pylon.cache.client.GridBundle;
import io.pylon.cache.client.GridClient;
import io.pylon.cache.client.GridUnavailableException;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps the current bundle of the Manager's own environment (the one its Cache grid belongs to) in that grid, sealed
 * with the environment ID, so that a Worker that cannot reach the Manager still starts and follows deployments. A
 * version is written when this replica installs it (its own deploy, or one another replica wrote) and again on every
 * {@link #sync()}, which also restores the copy after the grid lost it. Only a newer version replaces the stored one
 * ({@code PutNewerBundle} on the owning member), so replicas never move it backwards; an entry that does not carry
 * the environment's seal, or carries it over other bytes, is overwritten at the next sync (the grid authenticates
 * nobody, so such an entry was not written by a Manager). A grid that is down costs a warning, never a deploy; one
 * not reached yet since the Manager started (the Cache pods start beside it) an info line.
 *
 * <p>Threading: {@link #changed} is called by request threads (deploys) and the maintenance thread (refresh); it
 * hands the write to a virtual thread. {@link #sync()} is synchronized, so one write runs at a time and each writes
 * the environment's latest bundle; the outcome is kept in volatile fields read by the gateway status.
 */
public final class GridBundleCopy implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(GridBundleCopy.class.getName());

    private final GridClient grid;
    private final BundleWatch watch;
    private final String environment;
    private final String environmentId;
    private final Clock clock;
    private volatile long storedVersion = -1;
    private volatile @Nullable Instant storedAt;
    private volatile @Nullable String lastError;

    public GridBundleCopy(GridClient grid, BundleWatch watch, String environment, String environmentId, Clock clock) {
        this.grid = grid;
        this.watch = watch;
        this.environment = environment;
        this.environmentId = environmentId;
        this.clock = clock;
    }

    public String environment() {
        return environment;
    }

    /** A new version of {@code changedEnvironment} is served: copied to the grid soon, off the caller's thread. */
    public void changed(String changedEnvironment) {
        if (environment.equals(changedEnvironment)) {
            Thread.ofVirtual().name("gateway-bundle-grid-copy").start(this::sync);
        }
    }

    /** Writes the environment's current bundle unless the grid holds it (or a newer one) already. */
    public synchronized void sync() {
        BundleWatch.Current current;
        try {
            current = watch.current(environment);
        } catch (RuntimeException e) {
            failed("the current bundle could not be read (" + e.getClass().getSimpleName() + ")");
            return;
        }
        if (current.version() == 0) {
            return; // nothing deployed yet: a Worker starting from the grid would learn nothing
        }
        try {
            GridBundle ours = new GridBundle(current.version(), current.sha256(),
                    BundleSeal.seal(environment, environmentId, current.version(), current.sha256()), current.json());
            Optional<GridBundle> stored = grid.bundles().find(environment);
            long held;
            if (stored.isPresent() && !genuine(stored.get(), current)) {
                // the grid authenticates nobody: an entry without our seal (or with altered bytes) is not left standing
                LOG.log(Level.WARNING, "The data grid held a copy of the gateway bundle of '" + environment + "' that "
                        + "this Manager did not write (version " + stored.get().version() + "); replaced with version "
                        + current.version());
                grid.bundles().replace(environment, ours);
                held = current.version();
            } else if (stored.isEmpty() || stored.get().version() < current.version()) {
                held = grid.bundles().publish(environment, ours);
            } else {
                held = stored.get().version();
            }
            if (held != storedVersion) {
                storedAt = clock.instant();
            }
            storedVersion = held;
            if (lastError != null) {
                LOG.log(Level.INFO, "The data grid holds version " + held + " of '" + environment + "' again");
            }
            lastError = null;
        } catch (GridUnavailableException e) {
            failed(java.util.Objects.requireNonNullElse(e.getMessage(), e.getClass().getSimpleName()));
        }
    }

    // sealed with the environment's ID; of the version served here, its bytes must be exactly ours
    private boolean genuine(GridBundle stored, BundleWatch.Current current) {
        if (!BundleSeal.valid(stored, environment, environmentId)) {
            return false;
        }
        if (stored.version() != current.version()) {
            return true; // an older one is replaced by publish; a newer one is another replica's
        }
        return stored.sha256().equals(current.sha256()) && Arrays.equals(stored.json(), current.json());
    }

    private void failed(String reason) {
        if (!reason.equals(lastError)) {
            // before the grid was ever reached (the Cache pods start beside this one) the grid client says so itself
            Level level = grid.state() == ConnectionState.CONNECTING ? Level.INFO : Level.WARNING;
            LOG.log(level, "The data grid's copy of the gateway bundle of '" + environment + "' is not up to "
                    + "date: " + reason + "; retried every few seconds");
        }
        lastError = reason;
    }

    /** For the gateway status: the version the grid holds (as last seen), since when, the last failure. */
    public Map<String, Object> describe() {
        Map<String, Object> map = new LinkedHashMap<>();
        long held = storedVersion;
        Instant at = storedAt;
        map.put("version", held < 0 ? null : held);
        map.put("storedAt", at == null ? null : at.toString());
        map.put("gridState", grid.state().name());
        map.put("lastError", lastError);
        return map;
    }

    @Override
    public void close() {
        grid.close();
    }
}
