package io.pylon.worker.config;

import io.pylon.cache.client.BundleSeal;
import io.pylon.cache.client.GridBundle;
import io.pylon.cache.client.GridClient;
import io.pylon.cache.client.GridUnavailableException;

import java.util.Optional;

/**
 * The copy of the environment's bundle that the Manager keeps in the Cache data grid, as a Worker reads it when the
 * Manager cannot be asked. Reading never throws: a grid that is down or has no copy is an outcome, and a copy whose
 * seal is not this environment's (see {@link BundleSeal}) or that is larger than the Worker accepts is returned as
 * refused before its bytes are parsed. The hash of the bytes is checked by {@link GatewayConfig#apply}.
 */
public final class GridBundleSource {
    /** What one read found. */
    sealed interface Read permits Found, Absent, Unavailable, Refused {
    }

    /** A sealed copy: its bytes are still to be checked against its hash and validated. */
    record Found(GridBundle bundle) implements Read {
    }

    /** The grid answered and holds no copy of this environment. */
    record Absent() implements Read {
    }

    /** The grid could not be asked. */
    record Unavailable(String reason) implements Read {
    }

    /** A copy that must not be applied. */
    record Refused(GridBundle bundle, String reason) implements Read {
    }

    private final GridClient grid;
    private final String environment;
    private final String environmentId;
    private final int maxBytes;

    public GridBundleSource(GridClient grid, String environment, String environmentId, int maxBytes) {
        this.grid = grid;
        this.environment = environment;
        this.environmentId = environmentId;
        this.maxBytes = maxBytes;
    }

    Read read() {
        Optional<GridBundle> stored;
        try {
            stored = grid.bundles().find(environment);
        } catch (GridUnavailableException e) {
            return new Unavailable(java.util.Objects.requireNonNullElse(e.getMessage(), e.getClass().getSimpleName()));
        } catch (RuntimeException e) {
            // an entry of another type or shape under the environment's key: not the Manager's
            return new Unavailable("the data grid's entry could not be read (" + e.getClass().getSimpleName() + ")");
        }
        if (stored.isEmpty()) {
            return new Absent();
        }
        GridBundle bundle = stored.get();
        if (!BundleSeal.valid(bundle, environment, environmentId)) {
            return new Refused(bundle, "The data grid's copy of version " + bundle.version() + " is not sealed with "
                    + "this environment's ID (written by someone else or altered in the grid)");
        }
        if (bundle.size() > maxBytes) {
            return new Refused(bundle, "The data grid's copy of version " + bundle.version() + " is larger than "
                    + maxBytes + " bytes");
        }
        return new Found(bundle);
    }

    String describeGrid() {
        return grid.state().name();
    }
}
