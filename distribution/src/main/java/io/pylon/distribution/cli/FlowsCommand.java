package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pylon flows ...}: integration flows through the Manager's {@code /apiops/flows} (docs/integration.md).
 * A trigger key is printed only when the Manager answers one (on creation), and only on this command's output.
 */
@Command(name = "flows", description = "Lists, applies, runs and deletes integration flows (changes and runs need the admin role).")
public final class FlowsCommand implements Callable<Integer> {
    private final CliIo io;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    OutputOptions output;

    public FlowsCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        JsonNode answer = manager().get(CliPaths.flows() + "?limit=500");
        Table table = new Table(List.of("NAME", "VERSION", "NEXT RUN", "HTTP KEY", "UPDATED"));
        for (JsonNode flow : answer.path("flows")) {
            table.addValues(flow.path("name").asText(), flow.path("version").asLong(),
                    flow.path("nextRun").asText("-"), flow.path("hasTriggerKey").asBoolean() ? "yes" : "no",
                    flow.path("updatedAt").asText());
        }
        Printer.print(io, output, answer.path("flows"), () -> table);
        return 0;
    }

    @Command(name = "get", description = "Shows one flow with its document.")
    int get(@Parameters(paramLabel = "NAME") String name) {
        JsonNode flow = manager().get(CliPaths.flow(name));
        if (output.structured()) {
            Printer.print(io, output, flow, () -> null);
        } else {
            io.out().println("# " + Text.printable(name) + " version " + flow.path("version").asLong()
                    + (flow.hasNonNull("nextRun") ? ", next run " + flow.path("nextRun").asText() : ""));
            io.out().println(flow.path("document").asText());
        }
        return 0;
    }

    @Command(name = "apply", description = "Creates the flow a file describes (JSON or YAML), or replaces it when it exists.")
    int apply(@Parameters(paramLabel = "FILE") Path file) throws IOException {
        JsonNode document;
        try {
            document = new YAMLMapper().readTree(Files.readString(file));
        } catch (IOException e) {
            throw CliException.usage(file + " is not JSON or YAML: " + e.getMessage());
        }
        String name = document.path("name").asText("");
        if (name.isEmpty()) {
            throw CliException.usage(file + " has no name.");
        }
        ManagerClient manager = manager();
        HttpJson.Answer existing = manager.getAnswer(CliPaths.flow(name));
        if (existing.status() == 200) {
            JsonNode after = manager.send("PUT", CliPaths.flow(name), document);
            io.out().println("Replaced flow " + Text.printable(name) + " (version " + after.path("version").asLong() + ")."
                    + key(after));
        } else {
            JsonNode created = manager.send("POST", CliPaths.flows(), document);
            io.out().println("Created flow " + Text.printable(name) + "." + key(created));
        }
        return 0;
    }

    @Command(name = "run", description = "Runs a flow now and waits for it (or not, with --wait 0s).")
    int run(@Parameters(paramLabel = "NAME") String name,
            @Option(names = "--input", paramLabel = "JSON", description = "The run's input ($input).") String input,
            @Option(names = "--wait", paramLabel = "DURATION", defaultValue = "30s",
                    description = "How long to wait for the run to finish (at most 60s; default 30s).") String wait) {
        JsonNode body = null;
        if (input != null) {
            try {
                body = HttpJson.MAPPER.readTree(input);
            } catch (IOException e) {
                throw CliException.usage("--input is not JSON: " + e.getMessage());
            }
        }
        String path = CliPaths.flow(name, "runs") + (wait.equals("0s") ? "" : "?wait=" + wait);
        JsonNode run = manager().send("POST", path, body);
        if (output.structured()) {
            Printer.print(io, output, run, () -> null);
        } else {
            io.out().println("Run " + run.path("id").asText() + " of " + Text.printable(name) + ": "
                    + run.path("status").asText() + (run.hasNonNull("error") ? " (" + Text.printable(run.path("error").asText()) + ")" : ""));
            if (run.has("steps")) {
                RunsCommand.stepsTable(run.path("steps")).print(io.out(), true, false);
            }
        }
        return run.path("status").asText().equals("failed") ? 1 : 0;
    }

    @Command(name = "delete", description = "Deletes a flow (its history stays until pruned).")
    int delete(@Parameters(paramLabel = "NAME") String name) {
        manager().send("DELETE", CliPaths.flow(name), null);
        io.out().println("Deleted flow " + Text.printable(name) + ".");
        return 0;
    }

    private static String key(JsonNode answer) {
        return answer.hasNonNull("triggerKey") ? "\nTrigger key (shown once): " + answer.path("triggerKey").asText() : "";
    }

    private ManagerClient manager() {
        return Session.open(io, contextOptions).manager();
    }
}
