package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** {@code --context} and {@code --env}, on every command that talks to a Manager. */
public final class ContextOptions {
    @Option(scope = ScopeType.INHERIT, names = "--context", paramLabel = "NAME", description = "Context to use instead of the current one.")
    @Nullable String context;

    @Option(scope = ScopeType.INHERIT, names = "--env", paramLabel = "NAME", description = "Environment to work on (default: the context's, or the only one).")
    @Nullable String env;
}
