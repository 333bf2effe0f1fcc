package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;

import java.util.List;

/** {@code pylon health [module]}: every module's own health endpoint. Exit 1 unless every configured module is UP. */
@Command(name = "health", description = "Health of each module of the environment, from the modules' own endpoints.")
public final class HealthCommand extends ModuleEndpointCommand {
    public HealthCommand(CliIo io) {
        super(io);
    }

    @Override
    String path(String segment) {
        return CliPaths.moduleHealth(segment);
    }

    @Override
    int print(List<ModuleEndpoints.Result> results) {
        ArrayNode data = HttpJson.MAPPER.createArrayNode();
        boolean wide = output.format() == OutputOptions.Format.wide;
        Table table = new Table(wide ? List.of("MODULE", "STATUS", "HTTP", "TIME", "URL", "DOWN CHECKS")
                : List.of("MODULE", "STATUS", "HTTP", "TIME", "URL"));
        boolean allUp = true;
        for (ModuleEndpoints.Result result : results) {
            String status = status(result);
            // a module the environment names no URL for is not a failure: many environments have no Portal
            allUp &= "UP".equals(status) || result.url() == null;
            ObjectNode node = data.addObject().put("module", result.module()).put("url", result.url()).put("status", status);
            if (result.answer() != null) {
                node.put("httpStatus", result.answer().status()).put("responseTime", result.millis());
                node.set("health", result.answer().body().isMissingNode() ? null : result.answer().body());
            } else {
                node.put("error", result.error());
            }
            Table.Colour colour = "UP".equals(status) ? Table.Colour.GREEN : Table.Colour.RED;
            String http = result.answer() == null ? "-" : String.valueOf(result.answer().status());
            String time = result.answer() == null ? "-" : result.millis() + "ms";
            if (wide) {
                table.addValues(result.module(), new Table.Cell(status, colour), http, time, result.url(), downChecks(result));
            } else {
                table.addValues(result.module(), new Table.Cell(status, colour), http, time, result.url());
            }
        }
        Printer.print(io, output, data, () -> table);
        return allUp ? CliException.OK : CliException.FAILED;
    }

    private static String status(ModuleEndpoints.Result result) {
        if (result.url() == null) {
            return "NOT CONFIGURED";
        }
        if (result.answer() == null) {
            return "UNREACHABLE";
        }
        return result.answer().body().path("status").asText(result.answer().ok() ? "UP" : "DOWN");
    }

    private static @Nullable String downChecks(ModuleEndpoints.Result result) {
        if (result.answer() == null) {
            return result.error();
        }
        StringBuilder down = new StringBuilder();
        result.answer().body().path("checks").properties().forEach(check -> {
            if (!"UP".equals(check.getValue().path("status").asText())) {
                down.append(down.isEmpty() ? "" : ",").append(check.getKey());
            }
        });
        return down.toString();
    }
}
