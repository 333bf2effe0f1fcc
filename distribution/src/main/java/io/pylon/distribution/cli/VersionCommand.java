package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;

import java.util.List;

/** {@code pylon version [module]}: every module's own version endpoint. Exit 1 when a module did not answer. */
@Command(name = "version", description = "Version of each module of the environment, from the modules' own endpoints.")
public final class VersionCommand extends ModuleEndpointCommand {
    public VersionCommand(CliIo io) {
        super(io);
    }

    @Override
    String path(String segment) {
        return CliPaths.moduleVersion(segment);
    }

    @Override
    int print(List<ModuleEndpoints.Result> results) {
        ArrayNode data = HttpJson.MAPPER.createArrayNode();
        Table table = new Table(output.format() == OutputOptions.Format.wide
                ? List.of("MODULE", "VERSION", "COMMIT", "COMMIT TIME", "JAVA", "URL") : List.of("MODULE", "VERSION", "COMMIT", "URL"));
        boolean all = true;
        for (ModuleEndpoints.Result result : results) {
            HttpJson.Answer answer = result.answer();
            boolean answered = answer != null && answer.ok();
            all &= answered || result.url() == null;
            ObjectNode node = data.addObject().put("module", result.module()).put("url", result.url());
            var body = answer != null && answered ? answer.body() : HttpJson.MAPPER.missingNode();
            if (answered) {
                node.set("version", body);
            } else {
                node.put("error", result.url() == null ? "no URL in the environment"
                        : result.answer() == null ? result.error() : result.answer().description());
            }
            String version = answered ? body.path("version").asText("-") : (result.url() == null ? "NOT CONFIGURED" : "UNREACHABLE");
            if (output.format() == OutputOptions.Format.wide) {
                table.addValues(result.module(), version, body.path("commit").asText("-"), body.path("commitTime").asText("-"),
                        body.path("java").path("version").asText("-"), result.url());
            } else {
                table.addValues(result.module(), version, body.path("commit").asText("-"), result.url());
            }
        }
        Printer.print(io, output, data, () -> table);
        return all ? CliException.OK : CliException.FAILED;
    }
}
