package io.pylon.core.pod;

import org.jspecify.annotations.Nullable;

/**
 * Which threads wait for socket readiness for the pod's blocked virtual threads (the JDK's {@code jdk.pollerMode}):
 * virtual threads themselves by default, platform threads with {@code -Djdk.pollerMode=1}. A pod with one carrier
 * driven at saturation pauses now and then with the first, and spends about 30% more CPU a request with the second
 * (docs/worker.md); the {@code threads} diagnostics show which one runs.
 */
public final class IoPollers {
    private IoPollers() {
    }

    /**
     * The pollers running, from the name of one of their platform threads (the JDK names them so): "platform threads"
     * for {@code Read-Poller}, "virtual threads" for the {@code MasterPoller} that wakes virtual pollers; null for
     * another name.
     */
    public static @Nullable String kindOf(String threadName) {
        return switch (threadName) {
            case "Read-Poller" -> "platform threads";
            case "MasterPoller" -> "virtual threads";
            default -> null;
        };
    }
}
