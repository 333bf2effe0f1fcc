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
import io.pylon.distribution.cli.DeployCommand;
import io.pylon.distribution.cli.EnvironmentsCommand;
import io.pylon.distribution.cli.GatewayCommand;
import io.pylon.distribution.cli.FlowsCommand;
import io.pylon.distribution.cli.RunsCommand;
import io.pylon.distribution.cli.HealthCommand;
import io.pylon.distribution.cli.HttpJson;
import io.pylon.distribution.cli.LoginCommand;
import io.pylon.distribution.cli.LogoutCommand;
import io.pylon.distribution.cli.PodsCommand;
import io.pylon.distribution.cli.StartupTrace;
import io.pylon.distribution.cli.Text;
import io.pylon.distribution.cli.TokensCommand;
import io.pylon.distribution.cli.TopCommand;
import io.pylon.distribution.cli.ProxiesCommand;
import io.pylon.distribution.cli.RolloutCommand;
import io.pylon.distribution.cli.UsersCommand;
import io.pylon.distribution.cli.VersionCommand;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.List;

/**
 * {@code pylon}: runs pods ({@code run}, {@code up}, {@code settings}) and is the operator's tool for a Manager
 * ({@code login}, {@code pods}, {@code diag}, {@code top}, {@code dump}, {@code collect}, admin commands).
 * Exit codes: 0 ok, 1 a pod or call failed, 2 usage, 3 authentication.
 */
@Command(name = "pylon", mixinStandardHelpOptions = true, versionProvider = PylonCli.Version.class,
        description = "Runs Pylon modules, and operates a Pylon platform through its Manager.")
public final class PylonCli {
    /** Every subcommand, in the order of the help. */
    static final List<Class<?>> SUBCOMMANDS = List.of(RunCommand.class, UpCommand.class, SettingsCommand.class,
            LoginCommand.class, LogoutCommand.class, ConfigCommand.class, PodsCommand.class, DiagCommand.class,
            HealthCommand.class, VersionCommand.class, TopCommand.class, DumpCommand.class, CollectCommand.class,
            UsersCommand.class, TokensCommand.class, EnvironmentsCommand.class, AuditCommand.class,
            ProxiesCommand.class, DeployCommand.class, RolloutCommand.class, GatewayCommand.class, FlowsCommand.class,
            RunsCommand.class, CompletionCommand.class);

    public static void main(String[] args) {
        StartupTrace.mark("main");
        if (args.length > 0 && args[0].equals("run")) {
            io.pylon.core.server.HelidonRegistry.discoverInBackground();
        }
        if (args.length > 0 && (args[0].equals("run") || args[0].equals("up"))) {
            // Before anything logs: keeps a pod's last log lines from being lost to JUL's own shutdown hook.
            if (System.getProperty("java.util.logging.manager") == null) {
                System.setProperty("java.util.logging.manager", io.pylon.core.server.PodLogManager.class.getName());
            }
            // Helidon's logging set-up is for pods; the operator commands print their own lines
            io.helidon.logging.common.LogConfig.configureRuntime();
        } else if (args.length > 0 && !args[0].equals("settings")) {
            HttpJson.warmUpInBackground();
        }
        RunCommand run = RunCommand.parseSimple(args);
        if (run != null) {
            runPod(run);
            return;
        }
        CommandLine commandLine = commandLine(CliIo.system(), args);
        StartupTrace.mark("command line built");
        int code = commandLine.execute(args);
        StartupTrace.mark("command done");
        if (code != 0) {
            System.exit(code);
        }
    }

    /** A pod from the plain {@code run} form, without building picocli's model; what picocli's execution would do. */
    private static void runPod(RunCommand run) {
        int code;
        try {
            code = run.call();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            code = CliException.FAILED;
        } catch (RuntimeException e) {
            System.err.println(failureLine(e));
            code = CliException.FAILED;
        }
        if (code != 0) {
            System.exit(code);
        }
    }

    /** The command line with every subcommand and its error handling, writing to {@code io}. */
    public static CommandLine commandLine(CliIo io) {
        return commandLine(io, new String[0]);
    }

    /**
     * The command line for {@code args}, writing to {@code io}: what main runs, and what tests run in-process. When the
     * first argument names a subcommand, only that one is built: picocli reads the annotations of every command it is
     * given, which cost a short-lived CLI more than a tenth of its start-up (BENCHMARKS.md, "CLI"). Help, version,
     * a mistyped name and {@code completion} get them all.
     */
    public static CommandLine commandLine(CliIo io, String[] args) {
        CliFactory factory = new CliFactory(io);
        CommandLine commandLine = new CommandLine(new PylonCli(), factory);
        Class<?> only = args.length == 0 ? null : subcommand(args[0]);
        for (Class<?> type : only != null && only != CompletionCommand.class ? List.<Class<?>>of(only) : SUBCOMMANDS) {
            commandLine.addSubcommand(new CommandLine(type, factory));
        }
        commandLine.getSubcommands().values().forEach(PylonCli::addHelpOption);
        commandLine.setOut(new PrintWriter(io.out(), true));
        commandLine.setErr(new PrintWriter(io.err(), true));
        commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof CliException cli) {
                cmd.getErr().println("pylon: " + cli.getMessage());
                return cli.exitCode();
            }
            cmd.getErr().println(failureLine(e));
            return CliException.FAILED;
        });
        return commandLine;
    }

    /**
     * {@code -h} and {@code --help} on {@code command} and every command under it: the usage, exit 0. Not picocli's
     * standard mixin, which would give every subcommand a {@code --version} of its own beside {@code pylon version}.
     */
    static void addHelpOption(CommandLine command) {
        CommandLine.Model.CommandSpec spec = command.getCommandSpec();
        if (spec.options().stream().noneMatch(CommandLine.Model.OptionSpec::usageHelp)) {
            spec.addOption(CommandLine.Model.OptionSpec.builder("-h", "--help").usageHelp(true)
                    .description("Show this help and exit.").build());
        }
        command.getSubcommands().values().forEach(PylonCli::addHelpOption);
    }

    /** Never a stack trace: messages of our own code carry no secrets, a library's are made printable. */
    private static String failureLine(Exception e) {
        return "pylon: " + (e.getMessage() == null ? e.getClass().getSimpleName() : Text.printable(e.getMessage()));
    }

    private static @Nullable Class<?> subcommand(String name) {
        for (Class<?> type : SUBCOMMANDS) {
            Command command = type.getAnnotation(Command.class);
            if (command.name().equals(name) || List.of(command.aliases()).contains(name)) {
                return type;
            }
        }
        return null;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            io.pylon.core.version.BuildInfo build = io.pylon.core.version.BuildInfo.load();
            return new String[]{"Pylon " + build.version() + " (" + build.commit() + ", built " + build.buildTime() + ")"};
        }
    }
}
