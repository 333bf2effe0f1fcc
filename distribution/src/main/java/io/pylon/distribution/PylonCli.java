package io.pylon.distribution;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code pylon run <module>}, {@code pylon up}, {@code pylon settings}. */
@Command(name = "pylon", mixinStandardHelpOptions = true, versionProvider = PylonCli.Version.class,
        description = "Runs Pylon modules: one pod in the foreground, or a whole local platform.",
        subcommands = {RunCommand.class, UpCommand.class, SettingsCommand.class})
public final class PylonCli {

    public static void main(String[] args) {
        // Before anything logs: keeps a pod's last log lines from being lost to JUL's own shutdown hook.
        if (System.getProperty("java.util.logging.manager") == null) {
            System.setProperty("java.util.logging.manager", io.pylon.core.server.PodLogManager.class.getName());
        }
        io.helidon.logging.common.LogConfig.configureRuntime();
        int code = new CommandLine(new PylonCli())
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    cmd.getErr().println("pylon: " + e.getMessage());
                    return 1;
                })
                .execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            io.pylon.core.version.BuildInfo build = io.pylon.core.version.BuildInfo.load();
            return new String[]{"Pylon " + build.version() + " (" + build.commit() + ", built " + build.buildTime() + ")"};
        }
    }
}
