package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code pylon deploy ENV [PROXY...]}: deploys proxies (at their latest revision) to an environment and prints what
 * each Worker pod did; exit code 1 when a pod did not apply it.
 */
@Command(name = "deploy", description = "Deploys API proxies to an environment's Worker pods and shows each pod's result.")
public final class DeployCommand implements Callable<Integer> {
    private final CliIo io;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    OutputOptions output;

    @Parameters(index = "0", paramLabel = "ENV", description = "The environment (always named: --env, if given, must name the same).")
    String environment;

    @Parameters(index = "1..*", paramLabel = "PROXY", description = "Proxies to deploy at their latest revision (NAME or NAME@REVISION).")
    List<String> proxies = List.of();

    @Option(names = "--undeploy", paramLabel = "PROXY", description = "A proxy to remove from the environment (repeatable).")
    List<String> undeploy = List.of();

    @Option(names = "--comment", description = "Why (kept with the deployment).")
    String comment;

    @Option(names = "--wait", defaultValue = "10s", description = "How long to wait for the pods (0s: do not wait; at most 120s; default 10s).")
    String wait;

    public DeployCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        if (proxies.isEmpty() && undeploy.isEmpty()) {
            throw CliException.usage("Name at least one proxy to deploy, or one to remove with --undeploy (pylon deploy ENV PROXY...:"
                    + " the first argument, " + Text.printable(environment) + ", is the environment).");
        }
        ObjectNode body = HttpJson.MAPPER.createObjectNode();
        var list = body.putArray("proxies");
        for (String proxy : proxies) {
            int at = proxy.lastIndexOf('@');
            if (at < 0) {
                list.add(proxy);
            } else {
                list.addObject().put("name", proxy.substring(0, at)).put("revision", revision(proxy.substring(at + 1)));
            }
        }
        undeploy.forEach(body.putArray("undeploy")::add);
        if (comment != null) {
            body.put("comment", comment);
        }
        body.put("wait", DeploymentResult.waitValue(wait));
        Session session = Session.open(io, contextOptions);
        session.environment(environment);
        JsonNode answer = session.manager().send("POST", CliPaths.deployments(environment),
                body.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), "application/json",
                DeploymentResult.callTimeout(wait), Map.of());
        return DeploymentResult.print(io, output, environment, answer);
    }

    private static int revision(String text) {
        try {
            int revision = Integer.parseInt(text);
            if (revision >= 1) {
                return revision;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw CliException.usage("A proxy is NAME or NAME@REVISION (a revision is a number from 1), not '" + Text.printable(text) + "'.");
    }
}
