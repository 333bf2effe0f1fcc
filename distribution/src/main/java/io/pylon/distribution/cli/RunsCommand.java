package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code pylon runs FLOW [--limit N] [--before SEQ]} and {@code pylon runs get FLOW ID}: a flow's run history. */
@Command(name = "runs", description = "Lists a flow's runs, newest first; 'runs get FLOW ID' shows one run's steps.")
public final class RunsCommand implements Callable<Integer> {
    private final CliIo io;

    @Parameters(paramLabel = "FLOW", arity = "0..1", description = "The flow.")
    String flow;

    @Option(names = "--limit", defaultValue = "20", description = "How many runs (1-500, default 20).")
    int limit;

    @Option(names = "--before", paramLabel = "SEQ", description = "Runs older than this one (the NEXT a page printed).")
    Long before;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    OutputOptions output;

    public RunsCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        if (flow == null) {
            throw CliException.usage("Name the flow: pylon runs FLOW.");
        }
        if (limit < 1 || limit > 500) {
            throw CliException.usage("--limit must be from 1 to 500.");
        }
        JsonNode page = Session.open(io, contextOptions).manager().get(CliPaths.runs(flow, limit, before));
        Table table = new Table(List.of("ID", "STATUS", "TRIGGER", "SCHEDULED", "STARTED", "FINISHED", "POD", "ATTEMPTS", "ERROR"));
        for (JsonNode run : page.path("runs")) {
            table.addValues(run.path("id").asText(), run.path("status").asText(), run.path("trigger").asText(),
                    run.path("scheduledAt").asText("-"), run.path("startedAt").asText("-"),
                    run.path("finishedAt").asText("-"), run.path("pod").asText("-"), run.path("attempts").asInt(),
                    Text.printable(run.path("error").asText("")));
        }
        Printer.print(io, output, page.path("runs"), () -> table);
        if (!output.structured() && page.path("next").isNumber()) {
            io.out().println("Older runs: pylon runs " + Text.printable(flow) + " --before " + page.path("next").asLong());
        }
        return 0;
    }

    @Command(name = "get", description = "Shows one run and each step attempt (status, HTTP status, error, output size).")
    int get(@Parameters(paramLabel = "FLOW") String flowName, @Parameters(paramLabel = "ID") String id) {
        JsonNode run = Session.open(io, contextOptions).manager().get(CliPaths.run(flowName, id));
        if (output.structured()) {
            Printer.print(io, output, run, () -> null);
            return 0;
        }
        io.out().println("Run " + run.path("id").asText() + " of " + Text.printable(flowName) + ": "
                + run.path("status").asText() + ", " + run.path("trigger").asText() + ", on " + run.path("pod").asText("-")
                + ", attempts " + run.path("attempts").asInt()
                + (run.hasNonNull("error") ? "\nError: " + Text.printable(run.path("error").asText()) : ""));
        stepsTable(run.path("steps")).print(io.out(), true, false);
        return 0;
    }

    static Table stepsTable(JsonNode steps) {
        Table table = new Table(List.of("STEP", "PHASE", "ATTEMPT", "STATUS", "HTTP", "OUTPUT", "ERROR"));
        for (JsonNode step : steps) {
            table.addValues(step.path("step").asText(), step.path("phase").asText(), step.path("attempt").asInt(),
                    step.path("status").asText(), step.path("httpStatus").isNumber() ? step.path("httpStatus").asInt() : "-",
                    step.path("outputBytes").asInt() + " B" + (step.path("truncated").asBoolean() ? " (cut)" : ""),
                    Text.printable(step.path("error").asText("")));
        }
        return table;
    }
}
