import io.pylon.core.config.Settings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The pods a broadcast benchmark asks: `java -cp <classes>:<core classpath> BroadcastPeers <firstPort> <count>
 * [parkedThreads]` starts that many real diagnostics pods in this JVM on 127.0.0.1 (-Dbench.host) ports firstPort.., named
 * peer-00.., each knowing only itself; the parked threads (12 frames deep) make each pod's thread dump big, as a busy
 * gateway's is. Prints READY and the size of one thread dump answer, then runs until killed.
 */
public final class BroadcastPeers {
    public static final String ENVIRONMENT_ID = "0123456789abcdef01234567";
    /** The loopback address the peers bind ({@code -Dbench.host=127.0.31.1}: pick one no other run on the machine uses). */
    static final String HOST = System.getProperty("bench.host", "127.0.0.1");

    public static void main(String[] args) throws Exception {
        int firstPort = Integer.parseInt(args[0]);
        int count = Integer.parseInt(args[1]);
        int parked = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        CountDownLatch never = new CountDownLatch(1);
        for (int i = 0; i < parked; i++) {
            Thread thread = new Thread(() -> park(never, 12), "bench-parked-" + i);
            thread.setDaemon(true);
            thread.start();
        }
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = String.format(Locale.ROOT, "peer-%02d", i);
            pods.add(PodServer.start(new BenchModule(), Settings.of(Map.of(
                    "pylon.server.bind", HOST,
                    "pylon.server.port", String.valueOf(firstPort + i),
                    "pylon.pod.name", name,
                    "pylon.discovery.mode", "self",
                    "pylon.executor.async-threads", "2",
                    "pylon.environment.id", ENVIRONMENT_ID,
                    "pylon.data.dir", Files.createTempDirectory("pylon-bench-" + name).toString()))));
        }
        System.out.println("READY " + pods.size() + " pods");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> pods.forEach(Pod::stop)));
        never.await();
    }

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
}
