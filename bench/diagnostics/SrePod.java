import io.pylon.core.config.Settings;
import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;
import io.pylon.core.server.PylonModule;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * A pod serving the core's diagnostics for the SRE diagnostics benchmark (bench/diagnostics/sre.sh): `java -cp <core classes> SrePod.java <address>
 * <port> <threads> <objects> <bytes-per-object>` adds that many parked platform threads and retains that many byte
 * arrays, then prints READY and runs until killed.
 */
public final class SrePod {
    private static final List<Object> RETAINED = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        String address = args[0];
        int port = Integer.parseInt(args[1]);
        int threads = Integer.parseInt(args[2]);
        int objects = Integer.parseInt(args[3]);
        int size = Integer.parseInt(args[4]);
        for (int i = 0; i < threads; i++) {
            Thread.ofPlatform().daemon().name("bench-parked-" + i).start(() -> {
                while (true) {
                    LockSupport.park();
                }
            });
        }
        for (int i = 0; i < objects; i++) {
            RETAINED.add(new byte[size]);
        }
        Pod pod = PodServer.start(new BenchModule(), Settings.fromProcess(Map.of(
                "pylon.server.bind", address,
                "pylon.server.port", String.valueOf(port),
                "pylon.pod.name", "bench-sre",
                "pylon.environment.id", "0123456789abcdef01234567")));
        System.out.println("READY " + ProcessHandle.current().pid() + " retained=" + RETAINED.size());
        Runtime.getRuntime().addShutdownHook(new Thread(pod::stop));
        Thread.currentThread().join();
    }

    static final class BenchModule implements PylonModule {
        @Override
        public String name() {
            return "worker";
        }

        @Override
        public String displayName() {
            return "Worker";
        }

        @Override
        public int defaultPort() {
            return 8091;
        }

        @Override
        public boolean servesDiagnostics() {
            return true;
        }

        @Override
        public void start(ModuleContext context) {
        }
    }
}
