package io.pylon.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs an external tool (kubectl, podman, a script) to completion and keeps what it printed. */
record Command(List<String> args, int exitCode, String out, String err) {

    static Command run(Map<String, String> env, long timeoutSeconds, List<String> args) {
        try {
            // both streams to files, so that the timeout holds even while the tool prints nothing (reading its stdout
            // would block until it ends)
            Path outFile = Files.createTempFile("pylon-cmd", ".out");
            Path errFile = Files.createTempFile("pylon-cmd", ".err");
            try {
                ProcessBuilder builder = new ProcessBuilder(args).redirectOutput(outFile.toFile()).redirectError(errFile.toFile());
                builder.environment().putAll(env);
                Process process = builder.start();
                process.getOutputStream().close();
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                    throw new TimedOut(String.join(" ", args) + " did not finish within " + timeoutSeconds + " s");
                }
                return new Command(args, process.exitValue(), Files.readString(outFile), Files.readString(errFile));
            } finally {
                Files.deleteIfExists(outFile);
                Files.deleteIfExists(errFile);
            }
        } catch (IOException e) {
            throw new AssertionError("cannot run " + args.getFirst() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + args.getFirst(), e);
        }
    }

    static Command run(String... args) {
        return run(Map.of(), 600, List.of(args));
    }

    /** A tool that did not finish within its time. */
    static final class TimedOut extends AssertionError {
        TimedOut(String message) {
            super(message);
        }
    }

    /** This command's output, or an AssertionError with everything it printed when it failed. */
    String ok() {
        if (exitCode != 0) {
            throw new AssertionError(String.join(" ", args) + " exited with " + exitCode + "\nstdout: " + out + "\nstderr: " + err);
        }
        return out;
    }

    @Override
    public String toString() {
        return String.join(" ", args) + " -> " + exitCode + "\n" + out + err;
    }
}
