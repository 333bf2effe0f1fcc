package io.pylon.distribution.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * With {@code PYLON_CLI_TRACE} set, a command prints to standard error when it reached which phase, in milliseconds
 * since its process started (the launcher's bash included: it execs the JVM in the same process): how the start-up of
 * the short-lived CLI JVM was measured (BENCHMARKS.md, "CLI"). On Linux the process's age comes from
 * {@code /proc/self/stat} and {@code /proc/uptime} (10 ms steps); {@link ProcessHandle}'s start instant is no use here,
 * since it adds the boot time, which Linux gives in whole seconds. Thread-safe: stateless, each line one print.
 */
public final class StartupTrace {
    private static final boolean ON = System.getenv("PYLON_CLI_TRACE") != null;
    private static final long CLOCK_TICKS_PER_SECOND = 100;   // USER_HZ, 100 on every Linux architecture Pylon runs on

    private StartupTrace() {
    }

    public static void mark(String phase) {
        if (ON) {
            System.err.println("pylon trace: " + processAgeMillis() + " ms " + phase);
        }
    }

    static long processAgeMillis() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // the fields after the command name, which is in parentheses and may hold blanks; starttime is field 22
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long startTicks = Long.parseLong(fields[19]);
            double uptimeSeconds = Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
            return Math.round(uptimeSeconds * 1000) - startTicks * 1000 / CLOCK_TICKS_PER_SECOND;
        } catch (IOException | RuntimeException notLinux) {
            long started = ProcessHandle.current().info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
            return System.currentTimeMillis() - started;
        }
    }
}
