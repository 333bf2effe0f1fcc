package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code pylon pods [worker|cache]}: one row per pod of the environment. Exit 1 when a pod failed or is DOWN. */
@Command(name = "pods", description = "Lists the Worker and Cache pods of the environment with their state.")
public final class PodsCommand implements Callable<Integer> {
    private final CliIo io;

    @Parameters(arity = "0..1", paramLabel = "MODULE", description = "worker or cache (default: both).")
    @Nullable String module;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    OutputOptions output;

    public PodsCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        List<String> modules = ModuleNames.diagnosable(module);
        Session session = Session.open(io, contextOptions);
        String environment = session.environment();
        StartupTrace.mark("environment known");
        List<PodSnapshot> pods = new Fleet(session.manager(), environment).snapshot(modules);
        StartupTrace.mark("pods read");
        Printer.print(io, output, () -> json(pods), () -> table(pods, output.format() == OutputOptions.Format.wide));
        return pods.stream().anyMatch(PodSnapshot::failed) ? CliException.FAILED : CliException.OK;
    }

    private static Table table(List<PodSnapshot> pods, boolean wide) {
        List<String> headers = new ArrayList<>(List.of("NAME", "MODULE", "STATUS", "READY", "VERSION", "UPTIME",
                "HEAP", "THREADS", "DEADLOCKS", "FLAGS"));
        if (wide) {
            headers.addAll(List.of("CPU", "BLOCKED", "CONNECTIONS", "PENDING", "ERROR"));
        }
        Table table = new Table(headers);
        for (PodSnapshot pod : pods) {
            List<Table.Cell> row = new ArrayList<>();
            row.add(Table.Cell.of(pod.name() == null ? "(all)" : pod.name()));
            row.add(Table.Cell.of(pod.module()));
            row.add(pod.errorStatus() != null ? new Table.Cell("Error " + pod.errorStatus(), Table.Colour.RED)
                    : new Table.Cell("Running", Table.Colour.GREEN));
            row.add(pod.health() == null ? Table.Cell.of(null)
                    : new Table.Cell("UP".equals(pod.health()) ? "yes" : "no", "UP".equals(pod.health()) ? Table.Colour.GREEN : Table.Colour.RED));
            row.add(Table.Cell.of(pod.version()));
            row.add(Table.Cell.of(Units.age(pod.uptimeMs())));
            row.add(Table.Cell.of(pod.heapUsed() == null ? null : Units.bytes(pod.heapUsed()) + "/" + Units.bytes(pod.heapMax())));
            row.add(Table.Cell.of(pod.threads()));
            row.add(pod.deadlocks() != null && pod.deadlocks() > 0 ? new Table.Cell(String.valueOf(pod.deadlocks()), Table.Colour.RED)
                    : Table.Cell.of(pod.deadlocks()));
            String flags = pod.flags();
            row.add(flags.isEmpty() ? Table.Cell.of("") : new Table.Cell(flags, Table.Colour.RED));
            if (wide) {
                row.add(Table.Cell.of(Units.percent(pod.cpu())));
                row.add(Table.Cell.of(pod.blocked()));
                row.add(Table.Cell.of(pod.connections()));
                row.add(Table.Cell.of(pod.pending()));
                row.add(Table.Cell.of(pod.error()));
            }
            table.add(row);
        }
        return table;
    }

    static ArrayNode json(List<PodSnapshot> pods) {
        ArrayNode array = HttpJson.MAPPER.createArrayNode();
        for (PodSnapshot pod : pods) {
            ObjectNode node = HttpJson.MAPPER.valueToTree(pod);
            node.put("ready", "UP".equals(pod.health()));
            array.add(node);
        }
        return array;
    }
}
