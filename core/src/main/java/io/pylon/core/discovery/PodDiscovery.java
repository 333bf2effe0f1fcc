package io.pylon.core.discovery;

import java.util.List;

/** Finds every pod of this module in this environment, this pod included. */
public interface PodDiscovery extends AutoCloseable {

    /** The mode, as the broadcast answer names it: {@code kubernetes}, {@code dns}, {@code static} or {@code self}. */
    DiscoveryMode mode();

    /** The pods known now, in no particular order. */
    List<DiscoveredPod> pods() throws DiscoveryException;

    @Override
    default void close() {
    }
}
