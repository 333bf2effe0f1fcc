package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * A command that calls one of the modules' own endpoints ({@code health}, {@code version}) for one module or all of
 * them, at the URLs the Manager holds for the environment, and prints the results its own way.
 */
abstract class ModuleEndpointCommand implements Callable<Integer> {
    final CliIo io;

    @Parameters(arity = "0..1", paramLabel = "MODULE", description = "manager, worker, cache, integration or portal (default: all).")
    @Nullable String module;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    OutputOptions output;

    ModuleEndpointCommand(CliIo io) {
        this.io = io;
    }

    /** The endpoint's path on a module, for the context's segment. */
    abstract String path(String segment);

    /** Prints the results and answers the exit code. */
    abstract int print(List<ModuleEndpoints.Result> results);

    @Override
    public final Integer call() {
        List<String> modules = ModuleNames.any(module);
        Session session = Session.open(io, contextOptions);
        return print(ModuleEndpoints.call(session, modules, path(session.context().segmentOrDefault())));
    }
}
