package io.pylon.distribution;

import io.pylon.distribution.cli.AuditCommand;
import io.pylon.distribution.cli.CliException;
import io.pylon.distribution.cli.CliFactory;
import io.pylon.distribution.cli.CliIo;
import io.pylon.distribution.cli.CollectCommand;
import io.pylon.distribution.cli.CompletionCommand;
import io.pylon.distribution.cli.ConfigCommand;
import io.pylon.distribution.cli.DiagCommand;
import io.pylon.distribution.cli.DumpCommand;
import io.pylon.distribution.cli.EnvironmentsCommand;
import io.pylon.distribution.cli.HealthCommand;
import io.pylon.distribution.cli.LoginCommand;
import io.pylon.distribution.cli.LogoutCommand;
import io.pylon.distribution.cli.PodsCommand;
import io.pylon.distribution.cli.Text;
import io.pylon.distribution.cli.TokensCommand;
import io.pylon.distribution.cli.TopCommand;
import io.pylon.distribution.cli.UsersCommand;
import io.pylon.distribution.cli.VersionCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * {@code pylon}: runs pods ({@code run}, {@code up}, {@code settings}) and is the operator's tool for a Manager
 * ({@code login}, {@code pods}, {@code diag}, {@code top}, {@code dump}, {@code collect}, admin commands).
 * Exit codes: 0 ok, 1 a pod or call failed, 2 usage, 3 authentication.
 */
@Command(name = "pylon", mixinStandardHelpOptions = true, versionProvider = PylonCli.Version.class,
        description = "Runs Pylon modules, and operates a Pylon platform through its Manager.",
        subcommands = {RunCommand.class, UpCommand.class, SettingsCommand.class,
                LoginCommand.class, LogoutCommand.class, ConfigCommand.class, PodsCommand.class, DiagCommand.class,
                HealthCommand.class, VersionCommand.class, TopCommand.class, DumpCommand.class, CollectCommand.class,
                UsersCommand.class, TokensCommand.class, EnvironmentsCommand.class, AuditCommand.class,
                CompletionCommand.class})
public final class PylonCli {

    public static void main(String[] args) {
        if (args.length > 0 && (args[0].equals("run") || args[0].equals("up"))) {
            // Before anything logs: keeps a pod's last log lines from being lost to JUL's own shutdown hook.
            if (System.getProperty("java.util.logging.manager") == null) {
                System.setProperty("java.util.logging.manager", io.pylon.core.server.PodLogManager.class.getName());
            }
            // Helidon's logging set-up is for pods; the operator commands print their own lines
            io.helidon.logging.common.LogConfig.configureRuntime();
        }
        int code = commandLine(CliIo.system()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** The command line with its error handling, writing to {@code io}: what main runs, and what tests run in-process. */
    public static CommandLine commandLine(CliIo io) {
        CommandLine commandLine = new CommandLine(new PylonCli(), new CliFactory(io));
        commandLine.setOut(new PrintWriter(io.out(), true));
        commandLine.setErr(new PrintWriter(io.err(), true));
        commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof CliException cli) {
                cmd.getErr().println("pylon: " + cli.getMessage());
                return cli.exitCode();
            }
            // never a stack trace; messages of our own code carry no secrets, a library's are made printable
            cmd.getErr().println("pylon: " + (e.getMessage() == null ? e.getClass().getSimpleName() : Text.printable(e.getMessage())));
            return CliException.FAILED;
        });
        return commandLine;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            io.pylon.core.version.BuildInfo build = io.pylon.core.version.BuildInfo.load();
            return new String[]{"Pylon " + build.version() + " (" + build.commit() + ", built " + build.buildTime() + ")"};
        }
    }
}
