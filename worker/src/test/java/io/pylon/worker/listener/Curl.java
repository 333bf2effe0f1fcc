package io.pylon.worker.listener;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the curl command line (installed on the machine, as in CI) and returns what it wrote to standard output. */
final class Curl {
    private Curl() {
    }

    record Result(int exit, String out, String err) {
    }

    static Result run(String... args) {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "60"));
        command.addAll(List.of(args));
        try {
            java.nio.file.Path err = java.nio.file.Files.createTempFile("curl", ".err");
            Process process = new ProcessBuilder(command).redirectError(err.toFile()).start();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("curl did not finish: " + command);
            }
            String errors = java.nio.file.Files.readString(err);
            java.nio.file.Files.delete(err);
            return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8), errors);
        } catch (IOException e) {
            throw new AssertionError("curl cannot run", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
