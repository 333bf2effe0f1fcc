package io.pylon.core.diagnostics;

import jdk.jfr.Configuration;

import java.io.IOException;
import java.text.ParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The event settings of a flight recording by name: the JDK's {@code default} and {@code profile}, and {@code pylon},
 * the JDK's {@code default} without the events that fire on every I/O call of a proxied request. The Worker serves
 * each connection on a virtual thread that blocks in socket reads, so with {@code default} nearly every read is timed
 * and many pass its 1 ms threshold (a wait for the next request), each one a candidate event with a stack trace;
 * BENCHMARKS.md ("Health and diagnostics") has the cost of each. What {@code pylon} keeps covers the summary view: execution samples,
 * allocation samples, GC and monitor contention.
 *
 * <p>Threading: immutable; {@link Configuration} reads the JDK's files on each call.
 */
final class RecordingSettings {
    static final String PYLON = "pylon";
    static final List<String> NAMES = List.of(PYLON, "default", "profile");

    /** Events that {@code pylon} turns off in {@code default}: timed on every socket or file call, or every park. */
    static final List<String> PYLON_DISABLED = List.of("jdk.SocketRead", "jdk.SocketWrite", "jdk.FileRead",
            "jdk.FileWrite", "jdk.ThreadPark");

    private RecordingSettings() {
    }

    /**
     * Events off in every recording, whatever its settings: they copy the process's environment variables, system
     * properties, command line (where a setting such as {@code pylon.environment.id=} may be given) and the command
     * lines of every process on the machine into the file, so a recording would carry the environment ID and every
     * value the {@code env} section masks.
     */
    static final List<String> SECRET_BEARING = List.of("jdk.InitialEnvironmentVariable", "jdk.InitialSystemProperty",
            "jdk.JVMInformation", "jdk.SystemProcess");

    /** The event settings of {@code name}, one of {@link #NAMES}. */
    static Map<String, String> of(String name) throws IOException, ParseException {
        Map<String, String> settings = new HashMap<>(Configuration.getConfiguration(PYLON.equals(name) ? "default" : name)
                .getSettings());
        if (PYLON.equals(name)) {
            for (String event : PYLON_DISABLED) {
                settings.put(event + "#enabled", "false");
            }
        }
        for (String event : SECRET_BEARING) {
            settings.put(event + "#enabled", "false");
        }
        return settings;
    }
}
