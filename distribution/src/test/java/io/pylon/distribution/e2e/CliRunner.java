package io.pylon.distribution.e2e;

import io.pylon.distribution.PylonCli;
import io.pylon.distribution.cli.CliIo;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs {@code pylon} in this JVM exactly as main does (same command line, factory and error handling) with a config
 * file of the test's own and captured streams; standard output is not a terminal. Every output is kept, so that a
 * test can check that no secret was ever printed.
 */
final class CliRunner {
    record Result(int exit, String out, String err) {
        String all() {
            return out + err;
        }
    }

    private final Map<String, String> env = new HashMap<>();
    final StringBuilder everything = new StringBuilder();
    final StringBuilder errors = new StringBuilder();

    CliRunner(Path config) {
        env.put("PYLON_CONFIG", config.toString());
        env.put("HOME", config.getParent().toString());
    }

    Result run(String... args) {
        return runWithInput("", args);
    }

    Result runWithInput(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliIo io = new CliIo(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.copyOf(env), false);
        int exit = PylonCli.commandLine(io, args).execute(args);
        Result result = new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        synchronized (everything) {
            everything.append(result.all());
            errors.append(result.err());
        }
        return result;
    }
}
