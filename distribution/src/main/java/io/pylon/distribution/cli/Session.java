package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The context a command runs in (from {@code --context} or the current one), its Manager client, and the
 * environment it works on ({@code --env}, else the context's, else the Manager's only environment).
 */
public final class Session {
    private final CliContext context;
    private final ManagerClient manager;
    private final @Nullable String envOption;

    private Session(CliContext context, @Nullable String envOption) {
        this.context = context;
        this.manager = new ManagerClient(context.manager(), context.token(), context.name());
        this.envOption = envOption;
    }

    public static Session open(CliIo io, ContextOptions options) {
        StartupTrace.mark("command called");
        ConfigFile.Contents config = ConfigFile.locate(io.env()).read();
        String name = options.context != null ? options.context : config.currentContext();
        if (name == null) {
            throw CliException.auth("Not logged in: run `pylon login <manager-url>` first.");
        }
        CliContext context = config.find(name).orElseThrow(() -> CliException.usage("There is no context named '"
                + Text.printable(name) + "'; `pylon config get-contexts` lists them."));
        if (context.expired(Instant.now())) {
            throw CliException.auth("The session of context '" + context.name() + "' expired at " + context.expiresAt()
                    + ": log in again with `pylon login " + context.manager() + "`.");
        }
        StartupTrace.mark("context read");
        return new Session(context, options.env);
    }

    public CliContext context() {
        return context;
    }

    public ManagerClient manager() {
        return manager;
    }

    /**
     * The environment a command names as its argument, else {@link #environment()}; an argument and an {@code --env}
     * that name different environments are refused rather than one of them ignored.
     */
    public String environment(@Nullable String argument) {
        if (argument == null) {
            return environment();
        }
        if (envOption != null && !envOption.equals(argument)) {
            throw CliException.usage("The command names environment " + Text.printable(argument) + " and --env names "
                    + Text.printable(envOption) + ": name one.");
        }
        return argument;
    }

    /** The environment name to work on. */
    public String environment() {
        if (envOption != null) {
            return envOption;
        }
        if (context.environment() != null) {
            return context.environment();
        }
        List<String> names = new ArrayList<>();
        for (JsonNode environment : manager.get(CliPaths.environments()).path("environments")) {
            names.add(environment.path("name").asText());
        }
        if (names.size() == 1) {
            return names.getFirst();
        }
        throw CliException.usage(names.isEmpty() ? "The Manager has no environment yet."
                : "Name the environment with --env (one of: " + Text.printable(String.join(", ", names)) + ").");
    }
}
