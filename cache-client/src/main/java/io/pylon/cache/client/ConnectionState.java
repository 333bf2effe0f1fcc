package io.pylon.cache.client;

/** Where a {@link GridClient} stands with the data grid. */
public enum ConnectionState {
    /** Started, no member reached yet. */
    CONNECTING,
    /** Connected to the cluster; operations are sent. */
    CONNECTED,
    /** Lost the cluster; reconnecting in the background, operations fail fast. */
    DISCONNECTED,
    /** Closed by its owner. */
    CLOSED
}
