import io.pylon.core.config.Settings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;
import io.pylon.manager.ManagerModule;

import java.util.Map;

/**
 * A real Manager pod for the benchmark: `java -cp <manager classpath> ManagerBenchPod.java <port> <dataDir>`. Settings
 * come from the environment as usual (PYLON_MANAGER_ADMIN_PASSWORD, PYLON_MANAGER_TOKEN_CHECK_CACHE...); the
 * Argon2id parameters are the OWASP defaults unless set. Prints READY, runs until killed.
 */
public final class ManagerBenchPod {
    public static void main(String[] args) throws Exception {
        Pod pod = PodServer.start(new ManagerModule(), Settings.fromProcess(Map.of(
                "pylon.server.bind", "127.0.0.1",
                "pylon.server.port", args[0],
                "pylon.pod.name", "manager-bench",
                "pylon.data.dir", args[1],
                "pylon.environment.name", "local",
                "pylon.environment.id", "0123456789abcdef01234567",
                "pylon.manager.bootstrap.environment-type", "local",
                "pylon.manager.bootstrap.environment-urls", "worker=http://127.0.0.4:8091,cache=http://127.0.0.2:8090")));
        System.out.println("READY");
        Runtime.getRuntime().addShutdownHook(new Thread(pod::stop));
        Thread.currentThread().join();
    }
}
