package io.pylon.distribution.cli;

/**
 * With {@code PYLON_CLI_TRACE} set, a command prints to standard error when it reached which phase, in milliseconds
 * since the JVM started: how the start-up of the short-lived CLI JVM was measured (BENCHMARKS.md, issue 19).
 * Thread-safe: stateless, each line one print.
 */
public final class StartupTrace {
    private static final boolean ON = System.getenv("PYLON_CLI_TRACE") != null;

    private StartupTrace() {
    }

    public static void mark(String phase) {
        if (ON) {
            long started = ProcessHandle.current().info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
            System.err.println("pylon trace: " + (System.currentTimeMillis() - started) + " ms " + phase);
        }
    }
}
