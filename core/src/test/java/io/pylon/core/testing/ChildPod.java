package io.pylon.core.testing;

import io.pylon.core.config.Settings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A diagnostics pod in its own JVM, for tests that need separate heaps or separate java.util.logging: started by
 * {@link ChildPods} with {@code key=value} settings as arguments, plus {@code --fill-mb=N} (N MB of {@link FillerBlock}
 * kept reachable), {@code --spin} (one thread named {@code pylon-test-spinner} burning CPU) and {@code --commands}
 * (reads lines on standard input: {@code deadlock} deadlocks two threads ({@link Deadlock}), {@code sick} turns its
 * {@code test-liveness} check DOWN, {@code oom-thread} makes a thread allocate until it ends with an uncaught
 * OutOfMemoryError) and {@code --graceful} (SIGTERM stops the pod as a real one's does; else the JVM just exits). It runs
 * until killed.
 */
public final class ChildPod {
    private static final List<Object> KEPT = new ArrayList<>();

    private ChildPod() {
    }

    public static void main(String[] args) throws Exception {
        prepare(args);
        run(args, new FakeModule("worker").servingDiagnostics());
    }

    /**
     * What a module's main calls first, before its module exists: with {@code --graceful}, java.util.logging's manager
     * is the pylon command's, so that the pod's stop logs to its end (the manager is chosen on the first logger).
     */
    public static void prepare(String[] args) {
        if (List.of(args).contains("--graceful")) {
            System.setProperty("java.util.logging.manager", io.pylon.core.server.PodLogManager.class.getName());
        }
    }

    /** Starts {@code module} with the arguments of {@link #main} and runs until killed. */
    public static void run(String[] args, io.pylon.core.server.PylonModule module) throws Exception {
        Map<String, String> settings = new HashMap<>();
        int fillMb = 0;
        boolean spin = false;
        boolean commands = false;
        boolean graceful = false;
        for (String arg : args) {
            if (arg.startsWith("--fill-mb=")) {
                fillMb = Integer.parseInt(arg.substring("--fill-mb=".length()));
            } else if (arg.equals("--spin")) {
                spin = true;
            } else if (arg.equals("--commands")) {
                commands = true;
            } else if (arg.equals("--graceful")) {
                graceful = true;
            } else {
                int eq = arg.indexOf('=');
                settings.put(arg.substring(0, eq), arg.substring(eq + 1));
            }
        }
        fill(fillMb);
        if (spin) {
            Thread.ofPlatform().daemon().name("pylon-test-spinner").start(Spinner::spin);
        }
        if (commands) {
            if (!(module instanceof FakeModule fake)) {
                throw new IllegalArgumentException("--commands needs the FakeModule of ChildPod's own main");
            }
            fake.withCheck(new SickCheck());
            Thread.ofPlatform().daemon().name("pylon-test-commands").start(ChildPod::readCommands);
        }
        Pod pod = PodServer.start(module, Settings.of(settings));
        if (graceful) {
            pod.stopOnShutdown();
        }
        System.out.println("READY " + pod.port());
        System.out.flush();
        Thread.currentThread().join();
    }

    private static final java.util.concurrent.atomic.AtomicBoolean SICK = new java.util.concurrent.atomic.AtomicBoolean();

    private static void readCommands() {
        try (java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                java.nio.charset.StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                switch (line.strip()) {
                    case "deadlock" -> Deadlock.create("pylon-test-deadlock-a", "pylon-test-deadlock-b");
                    case "sick" -> SICK.set(true);
                    case "oom-thread" -> Thread.ofPlatform().name("pylon-test-oom").start(ChildPod::exhaustHeap);
                    default -> System.out.println("unknown command " + line);
                }
            }
        } catch (java.io.IOException e) {
            // the test ended
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void exhaustHeap() {
        List<long[]> hog = new ArrayList<>();
        while (true) {
            hog.add(new long[1 << 20]);
        }
    }

    /** A liveness check that is UP until the {@code sick} command. */
    private static final class SickCheck implements io.pylon.core.health.HealthCheck {
        @Override
        public String name() {
            return "test-liveness";
        }

        @Override
        public java.util.Set<Probe> probes() {
            return java.util.Set.of(Probe.LIVENESS);
        }

        @Override
        public io.pylon.core.health.CheckResult check() {
            return io.pylon.core.health.CheckResult.of(!SICK.get(), java.util.Map.of("sick", SICK.get()));
        }
    }

    private static void fill(int megabytes) {
        long blocks = megabytes * 1024L * 1024L / FillerBlock.BYTES;
        for (long i = 0; i < blocks; i++) {
            KEPT.add(new FillerBlock(i));
        }
        if (megabytes > 0) {
            System.gc(); // the filler is old: its heap after GC shows at once, not after the next full collection
        }
    }

    /** About 144 bytes a block on a 64-bit JVM (header plus 16 longs), so 100 MB is some 730 000 instances. */
    @SuppressWarnings("unused")
    static final class FillerBlock {
        static final int BYTES = 144;
        private final long a0;
        private long a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15;

        FillerBlock(long seed) {
            this.a0 = seed;
        }
    }

    /** Burns CPU in one method until the JVM ends. */
    static final class Spinner {
        private static volatile long sink;

        static void spin() {
            long x = 1;
            while (true) {
                x = x * 6364136223846793005L + 1442695040888963407L;
                if (x == 42) {
                    sink = x;
                }
            }
        }
    }
}
