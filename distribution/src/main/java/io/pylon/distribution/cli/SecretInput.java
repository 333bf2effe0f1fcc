package io.pylon.distribution.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Reads secrets: the first line of standard input, or a password asked twice without echo on a terminal. */
final class SecretInput {
    private SecretInput() {
    }

    static String password(CliIo io, boolean fromStdin, String prompt) {
        if (fromStdin) {
            return firstLine(io, "password");
        }
        java.io.Console console = System.console();
        if (console == null || !io.terminal()) {
            throw CliException.usage("No terminal to ask on: pass --password-stdin.");
        }
        char[] first = console.readPassword("%s: ", prompt);
        char[] second = console.readPassword("Again: ");
        if (first == null || second == null || !java.util.Arrays.equals(first, second)) {
            throw CliException.usage("The passwords differ.");
        }
        String password = new String(first);
        java.util.Arrays.fill(first, '\0');
        java.util.Arrays.fill(second, '\0');
        return password;
    }

    /** The first line of standard input as typed (a password may begin or end with a space); a usage error when empty. */
    static String firstLine(CliIo io, String what) {
        try {
            String line = new BufferedReader(new InputStreamReader(io.in(), StandardCharsets.UTF_8)).readLine();
            if (line != null && line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            if (line == null || line.isEmpty()) {
                throw CliException.usage("Standard input held no " + what + ".");
            }
            return line;
        } catch (IOException e) {
            throw CliException.failed("Could not read the " + what + " from standard input.");
        }
    }
}
