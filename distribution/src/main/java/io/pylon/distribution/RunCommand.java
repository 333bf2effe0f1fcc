package io.pylon.distribution;

import io.pylon.core.config.InvalidSettingException;
import io.pylon.core.config.Settings;
import io.pylon.core.pod.CoreSettings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;
import io.pylon.core.server.PylonModule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** One pod in the foreground, what a container runs. Settings come from the environment; flags override them. */
@Command(name = "run", description = "Runs one pod of a module in the foreground until SIGTERM or Ctrl-C.")
final class RunCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "MODULE", description = "manager, worker, cache, integration or portal")
    String module;

    @Option(names = "--pod-name", paramLabel = "NAME", description = "Pod name (default: <module>-<host>-<port>).")
    String podName;

    @Option(names = "--bind", paramLabel = "ADDR", description = "Address to bind to (default 0.0.0.0).")
    String bind;

    @Option(names = "--port", paramLabel = "PORT", description = "Port (default: the module's internal port).")
    Integer port;

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
