package io.pylon.distribution.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.Map;
import java.util.concurrent.Callable;

/** {@code pylon logout}: revokes the context's token at the Manager and removes the context. */
@Command(name = "logout", description = "Revokes the token of the context at the Manager and deletes the context.")
public final class LogoutCommand implements Callable<Integer> {
    private final CliIo io;

    @Mixin
    ContextOptions contextOptions;

    public LogoutCommand(CliIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        ConfigFile file = ConfigFile.locate(io.env());
        String name = contextOptions.context != null ? contextOptions.context : file.read().currentContext();
        CliContext context = name == null ? null : file.read().find(name).orElse(null);
        if (context == null) {
            throw CliException.usage("No context to log out of.");
        }
        String note = "";
        try {
            new ManagerClient(context.manager(), context.token(), context.name())
                    .postForm(CliPaths.revoke(), Map.of("token", context.token()));
        } catch (CliException e) {
            // the context goes anyway: an unreachable Manager must not keep a token on disk
            note = " (the Manager was not told: " + e.getMessage() + ")";
        }
        file.write(file.read().without(context.name()));
        io.out().println("Logged out of context " + Text.printable(context.name()) + note + ".");
        return 0;
    }
}
