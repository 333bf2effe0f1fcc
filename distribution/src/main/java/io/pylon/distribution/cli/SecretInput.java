package io.pylon.distribution.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Reads a password: the first line of standard input, or asked twice without echo on a terminal. */
final class SecretInput {
    private SecretInput() {
    }

    static String password(CliIo io, boolean fromStdin, String prompt) {
        if (fromStdin) {
            try {
                String line = new BufferedReader(new InputStreamReader(io.in(), StandardCharsets.UTF_8)).readLine();
                if (line == null || line.isEmpty()) {
                    throw CliException.usage("Standard input held no password.");
                }
                return line;
            } catch (IOException e) {
                throw CliException.failed("Could not read the password from standard input.");
            }
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
}
