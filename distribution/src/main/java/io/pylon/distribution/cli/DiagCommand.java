package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

/**
 * {@code pylon diag <name> <module> [--pod P]}: one diagnostics answer through the Manager's console, printed as
 * the pods gave it: JSON, indented on a terminal and one line when piped (for jq and files), or YAML. Exit 1 when a pod of the broadcast failed or the call was refused.
 */
@Command(name = "diag", description = "Prints a diagnostics answer (jvm, threads, threaddump, env, health, all, "
        + "connections, datagrid) of a module's pods, or of one pod.")
public final class DiagCommand implements Callable<Integer> {
    private final CliIo io;

    @Parameters(index = "0", paramLabel = "NAME", description = "jvm, threads, threaddump, env, health, all, connections (worker), datagrid (cache).")
    String name;

    @Parameters(index = "1", paramLabel = "MODULE", description = "worker or cache.")
    String module;

    @Option(names = "--pod", paramLabel = "POD", description = "One pod instead of all of the module.")
    @Nullable String pod;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "json", description = "json (default) or yaml.")
    String format;

    @Mixin
    ContextOptions contextOptions;

    public DiagCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        if (!format.equals("json") && !format.equals("yaml")) {
            throw CliException.usage("-o must be json or yaml for diag.");
        }
        if ("heapdump".equals(name)) {
            throw CliException.usage("A heap dump is binary: use `pylon dump heap <pod> -o file.hprof`.");
        }
        ModuleNames.diagnosable(module);
        Session session = Session.open(io, contextOptions);
        HttpJson.Answer answer = session.manager().getAnswer(CliPaths.diagnostics(session.environment(), module, name, pod, null));
        if (!answer.ok()) {
            io.err().println("pylon: " + Text.printable(answer.description()) + " (HTTP " + answer.status() + ")");
            return answer.status() == 404 && "unknown_diagnostics".equals(answer.body().path("error").asText())
                    ? CliException.USAGE : CliException.FAILED;
        }
        JsonNode body = answer.body();
        io.out().print(format.equals("yaml") ? Printer.yaml(body) : Printer.json(io, body) + "\n");
        return body.path("summary").path("failed").asInt(0) > 0 || body.has("error") ? CliException.FAILED : CliException.OK;
    }
}
