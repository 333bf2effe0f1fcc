import io.pylon.core.config.Settings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * A pod for the black box benchmark (bench/diagnostics/postmortem.sh): `java -cp <core classes> PostmortemPod.java <address> <port> <threads> <data dir>`
 * adds that many parked platform threads, starts a pod whose black box looks every 100 ms and writes one capture per
 * trigger a second at most, prints READY, then deadlocks two new threads for each line read on standard input (each
 * new pair is a new deadlock, so a capture). Runs until killed; SIGTERM writes the sigterm capture.
 */
public final class PostmortemPod {
    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[2]);
        for (int i = 0; i < threads; i++) {
            Thread.ofPlatform().daemon().name("bench-parked-" + i).start(() -> {
                while (true) {
                    LockSupport.park();
                }
            });
        }
        // the module of the SRE diagnostics benchmark (SrePod.java), beside this file (a multi-file source program)
        Pod pod = PodServer.start(new SrePod.BenchModule(), Settings.fromProcess(java.util.Map.of(
                "pylon.server.bind", args[0],
                "pylon.server.port", args[1],
                "pylon.pod.name", "bench-postmortem",
                "pylon.data.dir", args[3],
                "pylon.environment.id", "0123456789abcdef01234567",
                "pylon.diagnostics.postmortem.check-interval", "100ms",
                "pylon.diagnostics.postmortem.min-interval", "1s",
                "pylon.diagnostics.postmortem.max-count", "1000")));
        pod.stopOnShutdown();
        System.out.println("READY " + ProcessHandle.current().pid());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int n = 0;
        while (in.readLine() != null) {
            Object a = new Object();
            Object b = new Object();
            CountDownLatch both = new CountDownLatch(2);
            Thread.ofPlatform().daemon().name("bench-deadlock-" + n + "a").start(() -> lockBoth(a, b, both));
            Thread.ofPlatform().daemon().name("bench-deadlock-" + n + "b").start(() -> lockBoth(b, a, both));
            n++;
        }
        Thread.currentThread().join();
    }

    private static void lockBoth(Object held, Object wanted, CountDownLatch both) {
        synchronized (held) {
            both.countDown();
            try {
                both.await();
            } catch (InterruptedException e) {
                return;
            }
            synchronized (wanted) {
                LockSupport.park();
            }
        }
    }
}
