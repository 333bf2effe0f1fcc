package io.pylon.core.server;

import io.helidon.service.registry.GlobalServiceRegistry;

/**
 * Helidon's global service registry, discovered while the pod does other start-up work. The discovery reads every
 * jar's {@code META-INF/helidon} descriptors and initialises each service's descriptor class: about 50 ms of CPU at
 * the first use of a Helidon builder, taken off the main thread. Measured on 2 cores (BENCHMARKS.md, "Start-up and memory"), the
 * main thread's CPU fell but the first health 200 did not move: both cores are busy for the whole start, so this only
 * pays where a core is free. A registry without
 * discovery is not an option: the server's request parameters need the mapper services it finds.
 *
 * <p>Thread-safe: {@link GlobalServiceRegistry} creates its instance once under its own lock; a builder that needs it
 * earlier waits for it there.
 */
public final class HelidonRegistry {
    private HelidonRegistry() {
    }

    /** Starts the discovery on a thread of its own; returns at once. */
    public static void discoverInBackground() {
        Thread.ofPlatform().daemon().name("pylon-helidon-registry").start(GlobalServiceRegistry::registry);
    }
}
