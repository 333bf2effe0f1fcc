import io.pylon.core.config.Settings;
import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;
import io.pylon.core.server.PylonModule;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A pod serving the core's diagnostics, for the benchmark: `java -cp <core classpath> DiagnosticsPod.java <port>
 * [threads] [heapMiB]` starts it on 127.0.0.1 (or -Dbench.bind), adds that many parked platform threads and retains about that many
 * MiB of live objects, then prints READY and runs until killed.
 */
public final class DiagnosticsPod {
    private static final List<Object> RETAINED = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        int heapMiB = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        CountDownLatch never = new CountDownLatch(1);
        for (int i = 0; i < threads; i++) {
            Thread thread = new Thread(() -> park(never, 12), "bench-parked-" + i);
            thread.setDaemon(true);
            thread.start();
        }
        // Live data shaped like a cache: many small objects in a list, not a few huge arrays.
        for (long filled = 0; filled < heapMiB * 1024L * 1024L; filled += 4096 + 64) {
            RETAINED.add(new byte[4096]);
        }
        Pod pod = PodServer.start(new BenchModule(), Settings.fromProcess(Map.of(
                "pylon.server.bind", System.getProperty("bench.bind", "127.0.0.1"),
                "pylon.server.port", String.valueOf(port),
                "pylon.pod.name", "bench-0",
                "pylon.environment.id", "0123456789abcdef01234567")));
        System.out.println("READY " + ProcessHandle.current().pid() + " retained=" + RETAINED.size());
        Runtime.getRuntime().addShutdownHook(new Thread(pod::stop));
        never.await();
    }

    // A few frames deep, as threads of a real server are.
    private static void park(CountDownLatch latch, int depth) {
        if (depth > 0) {
            park(latch, depth - 1);
            return;
        }
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static final class BenchModule implements PylonModule {
        public String name() {
            return "worker";
        }

        public String displayName() {
            return "Worker";
        }

        public int defaultPort() {
            return 8091;
        }

        public boolean servesDiagnostics() {
            return true;
        }

        public void start(ModuleContext context) {
        }
    }
}
