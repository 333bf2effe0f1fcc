package io.pylon.core.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code promtool} (package {@code prometheus}, installed by {@code .ci/run}): a test that needs it fails
 * with a message saying how to install it, never skips.
 */
public final class Promtool {
    private Promtool() {
    }

    /** The path of a Prometheus binary ({@code promtool}, {@code prometheus}) on PATH or in /usr/bin. */
    public static Path binary(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(name + " is not installed: apt-get install -y prometheus (.ci/run does)");
    }

    /** Runs promtool with the arguments and standard input; the exit code and the combined output. */
    public static Result run(String stdin, String... args) {
        List<String> command = new ArrayList<>();
        command.add(binary("promtool").toString());
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            try (var in = process.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("promtool did not finish in 60 s");
            }
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run promtool", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public record Result(int exitCode, String output) {
    }
}
