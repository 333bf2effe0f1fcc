import io.pylon.core.config.Settings;
import io.pylon.core.server.PodServer;
import io.pylon.worker.WorkerModule;

import java.util.Map;

/** Starts one Worker pod from the environment (PYLON_* variables), as `pylon run worker` does, for the benchmark. */
public class StartWorker {
    public static void main(String[] args) throws Exception {
        PodServer.start(new WorkerModule(), Settings.fromProcess(Map.of())).stopOnShutdown();
        Thread.currentThread().join();
    }
}
