package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.List;

/** {@code pylon gateway status [ENV]}: what every Worker pod of an environment serves, against the current deployment. */
@Command(name = "gateway", description = "Shows what the gateway's Worker pods serve.")
public final class GatewayCommand {
    private final CliIo io;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    OutputOptions output;

    public GatewayCommand(CliIo io) {
        this.io = io;
    }

    @Command(name = "status", description = "Per Worker pod: applied version, hash, source, in sync / behind / rejected / stale, last contact, orphan routes.")
    int status(@Parameters(paramLabel = "ENV", arity = "0..1", description = "The environment (default: --env, the context's, or the only one).")
               @Nullable String named) {
        Session session = Session.open(io, contextOptions);
        String environment = session.environment(named);
        JsonNode status = session.manager().get(CliPaths.gatewayStatus(environment));
        Table table = new Table(List.of("POD", "IP", "STATE", "VERSION", "HASH", "SOURCE", "LAST CONTACT", "ORPHANS", "ERROR"));
        boolean allInSync = true;
        for (JsonNode pod : status.path("pods")) {
            String state = pod.path("state").asText();
            allInSync &= pod.path("inSync").asBoolean();
            StringBuilder orphans = new StringBuilder();
            pod.path("orphanRoutes").forEach(o -> orphans.append(orphans.isEmpty() ? "" : ",").append(o.asText()));
            String error = pod.path("rejectedVersion").isNumber()
                    ? "rejected " + pod.path("rejectedVersion").asLong() + ": " + pod.path("lastError").asText("")
                    : pod.path("lastError").asText(null);
            table.addValues(pod.path("podName").asText(), pod.path("podIp").asText(null),
                    new Table.Cell(state, switch (state) {
                        case "in-sync" -> Table.Colour.GREEN;
                        case "behind" -> Table.Colour.YELLOW;
                        default -> Table.Colour.RED;
                    }),
                    pod.path("appliedVersion").isNumber() ? pod.path("appliedVersion").asLong() : null,
                    DeploymentResult.shortHash(pod.path("appliedHash").asText(null)), pod.path("source").asText(null),
                    pod.path("lastContact").asText(null), orphans.isEmpty() ? null : orphans.toString(), error);
        }
        if (!output.structured()) {
            io.out().println("Environment " + Text.printable(environment) + ": version " + status.path("version").asLong()
                    + " (" + DeploymentResult.shortHash(status.path("hash").asText()) + "), " + status.path("pods").size()
                    + " Worker pod" + (status.path("pods").size() == 1 ? "" : "s") + ".");
        }
        Printer.print(io, output, status, () -> table);
        return 0;
    }
}
