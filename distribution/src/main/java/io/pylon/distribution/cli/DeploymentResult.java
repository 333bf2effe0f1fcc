package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * Prints a deploy's or a rollback's answer: one line for the version, then a row per Worker pod with what it did;
 * the exit code is 1 unless every pod applied the version.
 */
final class DeploymentResult {
    private DeploymentResult() {
    }

    static int print(CliIo io, OutputOptions output, String environment, JsonNode answer) {
        JsonNode result = answer.path("deploymentResult");
        boolean success = result.path("success").asBoolean();
        Table table = new Table(List.of("POD", "IP", "RESULT", "APPLIED", "TIME", "ERROR"));
        for (JsonNode pod : result.path("detailList")) {
            boolean ok = pod.path("success").asBoolean();
            String error = pod.path("error").asText(null);
            table.addValues(pod.path("podName").asText(), pod.path("podIp").asText(null),
                    new Table.Cell(ok ? "applied" : error != null && error.startsWith("Rejected") ? "rejected" : "failed",
                            ok ? Table.Colour.GREEN : Table.Colour.RED),
                    pod.path("appliedVersion").isNumber() ? pod.path("appliedVersion").asLong() : null,
                    pod.path("responseTime").asLong() + "ms", error);
        }
        if (!output.structured()) {
            io.out().println("Version " + answer.path("version").asLong() + " (" + shortHash(answer.path("hash").asText())
                    + ") of " + Text.printable(environment) + ": " + (success ? "applied by every pod" : "NOT applied by every pod")
                    + " in " + result.path("responseTime").asLong() + "ms.");
            if (result.path("message").isTextual()) {
                io.out().println(Text.printable(result.path("message").asText()));
            }
        }
        Printer.print(io, output, answer, () -> table);
        return success ? CliException.OK : CliException.FAILED;
    }

    static String shortHash(String hash) {
        return hash == null || hash.length() < 12 ? hash : hash.substring(0, 12);
    }

    /** {@code --wait} as the API takes it, checked here so a typo is a usage error, not a round trip. */
    static String waitValue(String wait) {
        java.time.Duration duration = DurationOption.parse(wait, "--wait", java.time.Duration.ZERO);
        if (duration.compareTo(java.time.Duration.ofSeconds(120)) > 0) {
            throw CliException.usage("--wait is at most 120s.");
        }
        return duration.toMillis() + "ms";
    }

    /** The HTTP timeout of a call that waits {@code wait} for the pods. */
    static java.time.Duration callTimeout(String wait) {
        return DurationOption.parse(wait, "--wait", java.time.Duration.ZERO).plus(ManagerClient.CALL_TIMEOUT);
    }
}
