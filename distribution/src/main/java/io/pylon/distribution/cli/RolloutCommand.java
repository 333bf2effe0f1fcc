package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** {@code pylon rollout history|undo [ENV]}: an environment's numbered deployments, and a rollback as a new number. */
@Command(name = "rollout", description = "Shows an environment's deployment history, or rolls it back.",
        subcommandsRepeatable = false)
public final class RolloutCommand {
    private static final String ENV = "The environment (default: --env, the context's, or the only one).";
    private final CliIo io;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    OutputOptions output;

    public RolloutCommand(CliIo io) {
        this.io = io;
    }

    @Command(name = "history", description = "Lists an environment's deployments, newest first; with --version, one version's proxies.")
    int history(@Parameters(paramLabel = "ENV", arity = "0..1", description = ENV) @Nullable String named,
                @Option(names = "--limit", defaultValue = "50", description = "At most this many (1-1000; default 50).") int limit,
                @Option(names = "--version", paramLabel = "N", description = "Show the proxies (and revisions) version N deployed.") Long version) {
        if (limit < 1 || limit > 1000) {
            throw CliException.usage("--limit is a number from 1 to 1000.");
        }
        Session session = Session.open(io, contextOptions);
        String environment = session.environment(named);
        if (version != null) {
            return snapshot(session.manager(), environment, version);
        }
        JsonNode deployments = session.manager().get(CliPaths.deployments(environment) + "?limit=" + limit).path("deployments");
        Table table = new Table(List.of("VERSION", "KIND", "FROM", "HASH", "PROXIES", "AUTHOR", "CREATED", "COMMENT"));
        for (JsonNode deployment : deployments) {
            table.addValues(deployment.path("version").asLong(), deployment.path("kind").asText(),
                    deployment.path("fromVersion").isNumber() ? deployment.path("fromVersion").asLong() : null,
                    DeploymentResult.shortHash(deployment.path("hash").asText()), deployment.path("proxyCount").asInt(),
                    deployment.path("author").asText(null), deployment.path("createdAt").asText(),
                    deployment.path("comment").asText("").isEmpty() ? null : deployment.path("comment").asText());
        }
        Printer.print(io, output, deployments, () -> table);
        return 0;
    }

    private int snapshot(ManagerClient manager, String environment, long version) {
        if (version < 1) {
            throw CliException.usage("--version is a version number (1 or more).");
        }
        JsonNode deployment = manager.get(CliPaths.deployment(environment, version));
        Table table = new Table(List.of("PROXY", "REVISION"));
        for (Iterator<Map.Entry<String, JsonNode>> it = deployment.path("proxies").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            table.addValues(entry.getKey(), entry.getValue().asInt());
        }
        if (!output.structured()) {
            io.out().println("Version " + deployment.path("version").asLong() + " of " + Text.printable(environment) + " ("
                    + deployment.path("kind").asText() + " by " + Text.printable(deployment.path("author").asText()) + ", "
                    + deployment.path("createdAt").asText() + ", hash " + DeploymentResult.shortHash(deployment.path("hash").asText()) + "):");
        }
        Printer.print(io, output, deployment, () -> table);
        return 0;
    }

    @Command(name = "undo", description = "Deploys an earlier version again, as a new version (default: the one before the current).")
    int undo(@Parameters(paramLabel = "ENV", arity = "0..1", description = ENV) @Nullable String named,
             @Option(names = "--to-version", paramLabel = "N", description = "The version to go back to.") Long toVersion,
             @Option(names = "--comment", description = "Why (kept with the deployment).") String comment,
             @Option(names = "--wait", defaultValue = "10s", description = "How long to wait for the pods (0s to 120s; default 10s).") String wait) {
        if (toVersion != null && toVersion < 1) {
            throw CliException.usage("--to-version is a version number (1 or more).");
        }
        Session session = Session.open(io, contextOptions);
        String environment = session.environment(named);
        ManagerClient manager = session.manager();
        long target = toVersion != null ? toVersion : previous(manager, environment);
        ObjectNode body = HttpJson.MAPPER.createObjectNode().put("wait", DeploymentResult.waitValue(wait));
        if (comment != null) {
            body.put("comment", comment);
        }
        JsonNode answer = manager.send("POST", CliPaths.rollback(environment, target),
                body.toString().getBytes(StandardCharsets.UTF_8), "application/json", DeploymentResult.callTimeout(wait), Map.of());
        if (!output.structured()) {
            io.out().println("Rolled " + Text.printable(environment) + " back to the proxies of version " + target + ".");
        }
        return DeploymentResult.print(io, output, environment, answer);
    }

    private static long previous(ManagerClient manager, String environment) {
        JsonNode deployments = manager.get(CliPaths.deployments(environment) + "?limit=2").path("deployments");
        if (deployments.size() < 2) {
            throw CliException.failed("Environment " + Text.printable(environment) + " has "
                    + (deployments.isEmpty() ? "no deployment" : "only one deployment") + ": nothing to go back to.");
        }
        return deployments.get(1).path("version").asLong();
    }
}
