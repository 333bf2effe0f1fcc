package io.pylon.cache.client;

/** Names of the distributed maps the platform uses; the Cache configures backups, TTL and eviction for each. */
public final class GridMaps {
    private GridMaps() {
    }

    /** Fixed-window rate-limit counters: key to {@link WindowCounter}. */
    public static final String COUNTERS = "pylon-counters";

    /** Cached gateway responses: key to bytes. */
    public static final String RESPONSES = "pylon-responses";

    /** Each environment's current gateway bundle, as the Manager published it: environment name to {@link GridBundle}. */
    public static final String GATEWAY_BUNDLES = "pylon-gateway-bundles";
}
