package io.pylon.distribution;

import io.pylon.core.config.InvalidSettingException;
import io.pylon.core.config.Settings;
import io.pylon.core.pod.CoreSettings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;
import io.pylon.core.server.PylonModule;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Pattern;

/**
 * One pod in the foreground, what a container runs. Settings come from the environment; flags override them.
 *
 * <p>{@link #parseSimple} reads the plain form {@code run <module> [--pod-name N] [--bind A] [--port P]} without
 * picocli, which every pod start would otherwise spend building its command model from annotations (about a tenth of
 * a Worker's start-up, BENCHMARKS.md, "Start-up and memory"); anything else (help, a typo, a repeated flag, an odd value) goes to
 * picocli, which gives the usage errors. RunCommandParseTest keeps both readings equal.
 */
@Command(name = "run", description = "Runs one pod of a module in the foreground until SIGTERM or Ctrl-C.")
final class RunCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "MODULE", description = "manager, worker, cache, integration or portal")
    String module;

    @Option(names = "--pod-name", paramLabel = "NAME", description = "Pod name (default: <module>-<host>-<port>).")
    @Nullable String podName;

    @Option(names = "--bind", paramLabel = "ADDR", description = "Address to bind to (default 0.0.0.0).")
    @Nullable String bind;

    @Option(names = "--port", paramLabel = "PORT", description = "Port (default: the module's internal port).")
    @Nullable Integer port;

    private static final Pattern PORT = Pattern.compile("[1-9][0-9]{0,4}");

    /** The run command for {@code args} in its plain form, or null when picocli must read them. */
    static @Nullable RunCommand parseSimple(String[] args) {
        if (args.length < 2 || args.length % 2 != 0 || !args[0].equals("run") || args[1].isEmpty() || args[1].startsWith("-")) {
            return null;
        }
        RunCommand run = new RunCommand();
        run.module = args[1];
        for (int i = 2; i < args.length; i += 2) {
            String value = args[i + 1];
            if (value.isEmpty() || value.startsWith("-")) {
                return null;
            }
            switch (args[i]) {
                case "--pod-name" -> {
                    if (run.podName != null) {
                        return null;
                    }
                    run.podName = value;
                }
                case "--bind" -> {
                    if (run.bind != null) {
                        return null;
                    }
                    run.bind = value;
                }
                case "--port" -> {
                    if (run.port != null || !PORT.matcher(value).matches()) {
                        return null;
                    }
                    run.port = Integer.valueOf(value);
                }
                default -> {
                    return null;
                }
            }
        }
        return run;
    }

    private static Map<String, String> systemProperties() {
        Map<String, String> properties = new HashMap<>();
        System.getProperties().forEach((k, v) -> properties.put(String.valueOf(k), String.valueOf(v)));
        return properties;
    }

    @Override
    public Integer call() throws InterruptedException {
        PylonModule target = Modules.named(module);
        Map<String, String> overrides = new HashMap<>();
        if (podName != null) {
            overrides.put(CoreSettings.POD_NAME.key(), podName);
        }
        if (bind != null) {
            overrides.put(CoreSettings.BIND.key(), bind);
        }
        if (port != null) {
            overrides.put(CoreSettings.port(target.defaultPort()).key(), String.valueOf(port));
        }
        for (String warning : UnknownSettings.warningsFor(target, System.getenv(), systemProperties())) {
            System.err.println("pylon: warning: " + warning);
        }
        Pod pod;
        try {
            pod = PodServer.start(target, Settings.fromProcess(overrides));
        } catch (InvalidSettingException e) {
            System.err.println("pylon: " + e.getMessage());
            return 2;
        } catch (IllegalStateException e) {
            System.err.println("pylon: " + e.getMessage());
            return 1;
        }
        pod.stopOnShutdown();
        new CountDownLatch(1).await();
        return 0;
    }
}
