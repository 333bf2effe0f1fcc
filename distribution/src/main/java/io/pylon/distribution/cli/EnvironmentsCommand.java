package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code pylon environments ...}. The environment ID is a secret of the pods: it is removed from every output, and
 * {@code rotate-id} writes the new one only to an owner-only file the operator names.
 */
@Command(name = "environments", aliases = "envs", description = "Lists and manages environments (changes need the admin role).")
public final class EnvironmentsCommand implements Callable<Integer> {
    private final CliIo io;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    OutputOptions output;

    public EnvironmentsCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        ArrayNode environments = (ArrayNode) manager().get(CliPaths.environments()).path("environments");
        environments.forEach(EnvironmentsCommand::withoutId);
        boolean wide = output.format() == OutputOptions.Format.wide;
        Table table = new Table(wide ? List.of("NAME", "TYPE", "WORKER", "CACHE", "MANAGER", "INTEGRATION", "PORTAL", "DESCRIPTION")
                : List.of("NAME", "TYPE", "WORKER", "CACHE", "UPDATED"));
        for (JsonNode environment : environments) {
            JsonNode urls = environment.path("urls");
            if (wide) {
                table.addValues(environment.path("name").asText(), environment.path("type").asText(), url(urls, "worker"),
                        url(urls, "cache"), url(urls, "manager"), url(urls, "integration"), url(urls, "portal"),
                        environment.path("description").asText(""));
            } else {
                table.addValues(environment.path("name").asText(), environment.path("type").asText(), url(urls, "worker"),
                        url(urls, "cache"), environment.path("updatedAt").asText());
            }
        }
        Printer.print(io, output, environments, () -> table);
        return 0;
    }

    @Command(name = "get", description = "Shows one environment (without its ID).")
    int get(@Parameters(paramLabel = "NAME") String name) {
        JsonNode environment = withoutId(manager().get(CliPaths.environment(name)));
        OutputOptions structured = output.structured() ? output : yamlOutput();
        Printer.print(io, structured, environment, () -> null);
        return 0;
    }

    @Command(name = "create", description = "Registers an environment (the Manager generates its ID).")
    int create(@Parameters(paramLabel = "NAME") String name,
               @Option(names = "--type", defaultValue = "development", description = "local, development, test, staging or production.") String type,
               @Option(names = "--description") String description,
               @Option(names = "--url", paramLabel = "MODULE=URL", required = true,
                       description = "Access URL of a module (worker and cache are required); repeat per module.") Map<String, String> urls) {
        ObjectNode body = HttpJson.MAPPER.createObjectNode().put("name", name).put("type", type);
        if (description != null) {
            body.put("description", description);
        }
        ObjectNode urlNode = body.putObject("urls");
        urls.forEach(urlNode::put);
        manager().send("POST", CliPaths.environments(), body);
        io.out().println("Created environment " + Text.printable(name) + ".");
        return 0;
    }

    @Command(name = "delete", description = "Deletes an environment.")
    int delete(@Parameters(paramLabel = "NAME") String name) {
        manager().send("DELETE", CliPaths.environment(name), null);
        io.out().println("Deleted environment " + Text.printable(name) + ".");
        return 0;
    }

    @Command(name = "rotate-id", description = "Gives the environment a new ID, written only to --id-file (mode 0600).")
    int rotateId(@Parameters(paramLabel = "NAME") String name,
                 @Option(names = "--id-file", paramLabel = "FILE", required = true,
                         description = "Where to write the new ID, for the pods' Secret; must not exist yet.") Path idFile) throws IOException {
        if (Files.exists(idFile)) {
            throw CliException.usage(idFile + " exists already; name a new file.");
        }
        JsonNode environment = manager().send("POST", CliPaths.environment(name, "rotate-id"), null);
        String id = environment.path("environmentId").asText();
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(idFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } else {
            Files.createFile(idFile);
        }
        Files.writeString(idFile, id);
        io.out().println("Environment " + Text.printable(name) + " has a new ID, written to " + idFile
                + ". Give it to the environment's Worker and Cache pods (PYLON_ENVIRONMENT_ID).");
        return 0;
    }

    private static JsonNode withoutId(JsonNode environment) {
        if (environment instanceof ObjectNode object) {
            object.remove("environmentId");
        }
        return environment;
    }

    private static @Nullable String url(JsonNode urls, String module) {
        return urls.path(module).isTextual() ? urls.path(module).asText() : null;
    }

    private static OutputOptions yamlOutput() {
        OutputOptions yaml = new OutputOptions();
        yaml.format = OutputOptions.Format.yaml;
        return yaml;
    }

    private ManagerClient manager() {
        return Session.open(io, contextOptions).manager();
    }
}
