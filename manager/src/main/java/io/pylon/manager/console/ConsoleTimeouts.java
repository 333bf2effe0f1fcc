package io.pylon.manager.console;

import java.time.Duration;

/**
 * How long the Manager waits on an environment's modules: to connect, for a module's health and version, for a
 * diagnostics answer (a broadcast thread dump of many pods takes a while), and between two reads of a heap dump (the
 * pod writes the dump before the first byte).
 */
public record ConsoleTimeouts(Duration connect, Duration moduleCheck, Duration diagnostics, Duration heapDump) {

    public static ConsoleTimeouts defaults() {
        return new ConsoleTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(60),
                Duration.ofMinutes(5));
    }
}
