package io.pylon.distribution.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;

/**
 * What a command talks to: standard streams, the process environment and whether standard output is a terminal
 * (colour, progress bars and prompts only then). Tests pass their own; {@link #system()} is the real process's.
 */
public record CliIo(InputStream in, PrintStream out, PrintStream err, Map<String, String> env, boolean terminal) {

    public static CliIo system() {
        return new CliIo(System.in, System.out, System.err, System.getenv(), isTerminal());
    }

    /** Colour unless NO_COLOR is set (no-color.org) or the output is not a terminal. */
    public boolean colour() {
        return terminal && env.get("NO_COLOR") == null && !"dumb".equals(env.get("TERM"));
    }

    private static boolean isTerminal() {
        java.io.Console console = System.console();
        if (console == null) {
            return false;
        }
        // JDK 22+ returns a Console even when redirected; isTerminal() tells (absent on 21, where null already did)
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
