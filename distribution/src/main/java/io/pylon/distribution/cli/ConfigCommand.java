package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Instant;

/** {@code pylon config get-contexts | current-context | use-context | set-env | delete-context}, as kubectl has. */
@Command(name = "config", description = "Shows and switches contexts of the config file (tokens are never shown).")
public final class ConfigCommand {
    private final CliIo io;

    public ConfigCommand(CliIo io) {
        this.io = io;
    }

    @Command(name = "get-contexts", description = "Lists the contexts; * marks the current one.")
    int getContexts(@Mixin OutputOptions output) {
        ConfigFile.Contents config = ConfigFile.locate(io.env()).read();
        var data = HttpJson.MAPPER.createArrayNode();
        Table table = new Table(java.util.List.of("CURRENT", "NAME", "MANAGER", "USER", "ENVIRONMENT", "TOKEN"));
        for (CliContext context : config.contexts()) {
            boolean current = context.name().equals(config.currentContext());
            String token = context.expiresAt() == null ? "personal"
                    : context.expired(Instant.now()) ? "expired" : "until " + context.expiresAt();
            table.addValues(current ? "*" : "", context.name(), context.manager(), context.user(), context.environment(), token);
            data.addObject().put("name", context.name()).put("current", current).put("manager", context.manager())
                    .put("user", context.user()).put("environment", context.environment()).put("expiresAt", context.expiresAt());
        }
        Printer.print(io, output, data, () -> table);
        return 0;
    }

    @Command(name = "current-context", description = "Prints the name of the current context.")
    int currentContext() {
        String current = ConfigFile.locate(io.env()).read().currentContext();
        if (current == null) {
            throw CliException.usage("No current context: run `pylon login <manager-url>`.");
        }
        io.out().println(current);
        return 0;
    }

    @Command(name = "use-context", description = "Makes NAME the current context.")
    int useContext(@Parameters(paramLabel = "NAME") String name) {
        ConfigFile file = ConfigFile.locate(io.env());
        ConfigFile.Contents config = file.read();
        existing(config, name);
        file.write(config.current(name));
        io.out().println("Switched to context " + Text.printable(name) + ".");
        return 0;
    }

    @Command(name = "set-env", description = "Sets the default environment of a context (the current one unless --context).")
    int setEnv(@Parameters(paramLabel = "ENVIRONMENT") String environment,
               @Option(names = "--context", paramLabel = "NAME") String name) {
        ConfigFile file = ConfigFile.locate(io.env());
        ConfigFile.Contents config = file.read();
        CliContext context = existing(config, name != null ? name : config.currentContext());
        file.write(config.replacing(context.withEnvironment(environment)));
        io.out().println("Context " + Text.printable(context.name()) + " now works on environment " + Text.printable(environment) + ".");
        return 0;
    }

    @Command(name = "delete-context", description = "Removes a context and its token from the config file (see also logout).")
    int deleteContext(@Parameters(paramLabel = "NAME") String name) {
        ConfigFile file = ConfigFile.locate(io.env());
        ConfigFile.Contents config = file.read();
        existing(config, name);
        file.write(config.without(name));
        io.out().println("Deleted context " + Text.printable(name) + ".");
        return 0;
    }

    private static CliContext existing(ConfigFile.Contents config, @Nullable String name) {
        if (name == null) {
            throw CliException.usage("No current context: run `pylon login <manager-url>`.");
        }
        return config.find(name).orElseThrow(() -> CliException.usage("There is no context named '" + Text.printable(name)
                + "'; `pylon config get-contexts` lists them."));
    }
}
