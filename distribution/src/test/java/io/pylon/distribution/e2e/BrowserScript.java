package io.pylon.distribution.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the Playwright script of {@code src/test/e2e} with Node.js against Debian's Chromium, installing the pinned
 * {@code playwright-core} with {@code npm ci} first when it is missing or older than the lock file.
 */
final class BrowserScript {
    static final Path DIR = Path.of("src/test/e2e").toAbsolutePath();
    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("PYLON_CHROMIUM", "/usr/bin/chromium"));
    static final Path SCREENSHOTS = Path.of("target/e2e-screenshots").toAbsolutePath();

    record Result(int exitCode, String output) {
    }

    private BrowserScript() {
    }

    /** Why the browser test cannot run here, or null when it can. */
    static String missingTools() {
        if (!Files.isExecutable(CHROMIUM)) {
            return CHROMIUM + " is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does";
        }
        if (run(List.of("node", "--version"), Map.of(), 30).exitCode() != 0) {
            return "node is missing: install Node.js 18 or newer";
        }
        return null;
    }

    static void installOnce() {
        Path installed = DIR.resolve("node_modules/.package-lock.json");
        try {
            if (Files.exists(installed) && Files.getLastModifiedTime(installed).compareTo(
                    Files.getLastModifiedTime(DIR.resolve("package-lock.json"))) >= 0) {
                return;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Result result = run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(), 300);
        if (result.exitCode() != 0) {
            throw new IllegalStateException("npm ci failed in " + DIR + ":\n" + result.output());
        }
    }

    static Result phase(String phase, Map<String, String> environment) {
        return script("manager-ui.e2e.mjs", phase, environment);
    }

    /** One phase of the Playwright script {@code file} of src/test/e2e. */
    static Result script(String file, String phase, Map<String, String> environment) {
        Map<String, String> all = new java.util.HashMap<>(environment);
        all.put("PHASE", phase);
        all.put("SCREENSHOTS", SCREENSHOTS.toString());
        all.put("CHROMIUM", CHROMIUM.toString());
        return node(all, file);
    }

    static Result node(Map<String, String> environment, String... arguments) {
        List<String> command = new java.util.ArrayList<>(List.of("node"));
        command.addAll(List.of(arguments));
        return run(command, environment, 600);
    }

    private static Result run(List<String> command, Map<String, String> environment, int timeoutSeconds) {
        try {
            Path log = Files.createTempFile("pylon-e2e", ".log");
            ProcessBuilder builder = new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            Process process = builder.start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                return new Result(-1, "timed out after " + timeoutSeconds + " s\n" + Files.readString(log));
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            Files.deleteIfExists(log);
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            return new Result(-1, command.get(0) + " could not run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }
}
