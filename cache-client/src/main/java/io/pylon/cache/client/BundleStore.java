package io.pylon.cache.client;

import com.hazelcast.core.HazelcastInstance;

import java.util.Optional;

/**
 * The copy of each environment's current gateway bundle in the grid ({@link GridMaps#GATEWAY_BUNDLES}, keyed by the
 * environment's name): the Manager publishes every version it serves, a Worker that cannot reach the Manager reads it.
 * Calls fail fast with {@link GridUnavailableException} like every grid call.
 */
public final class BundleStore {
    private final HazelcastInstance client;
    private final GridCalls calls;

    BundleStore(HazelcastInstance client, GridCalls calls) {
        this.client = client;
        this.calls = calls;
    }

    /**
     * Stores {@code bundle} unless the grid holds the same or a newer version of the environment already.
     *
     * @return the version the grid holds afterwards
     */
    public long publish(String environment, GridBundle bundle) {
        requireKey(environment);
        return calls.await("gateway bundle publish", () ->
                client.<String, GridBundle>getMap(GridMaps.GATEWAY_BUNDLES).submitToKey(environment, new PutNewerBundle(bundle)));
    }

    /** Stores {@code bundle} whatever the grid holds: for replacing an entry that is not the Manager's. */
    public void replace(String environment, GridBundle bundle) {
        requireKey(environment);
        calls.await("gateway bundle replace", () ->
                client.<String, GridBundle>getMap(GridMaps.GATEWAY_BUNDLES).setAsync(environment, bundle));
    }

    /** The environment's bundle as stored, unchecked: the reader verifies its seal and hash. */
    public Optional<GridBundle> find(String environment) {
        requireKey(environment);
        return Optional.ofNullable(calls.await("gateway bundle read", () ->
                client.<String, GridBundle>getMap(GridMaps.GATEWAY_BUNDLES).getAsync(environment)));
    }

    private static void requireKey(String environment) {
        if (environment == null || environment.isEmpty()) {
            throw new IllegalArgumentException("the environment's name must not be empty");
        }
    }
}
