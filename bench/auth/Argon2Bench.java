import io.pylon.manager.auth.argon2.Argon2Cost;
import io.pylon.manager.auth.argon2.ThreadLocalArgon2id;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Argon2id, Pylon's former hand-written implementation against Bouncy Castle's {@link Argon2BytesGenerator} with a
 * {@link Argon2BytesGenerator.FixedBlockPool} shared by the hashing threads, in one JVM.
 *
 * <p>Part 1, one thread, interleaved: wall time, thread CPU time and bytes allocated per hash. Part 2, a login flood:
 * a pool shaped like the Manager's hashing pool ({@code threads} platform threads, a queue of 8, refusals beyond it)
 * fed by {@code clients} virtual threads that submit again at once, for {@code floodSeconds} per implementation and
 * round, alternating; hashes completed per second, process CPU per hash, and collections.
 * Arguments: memoryKib iterations parallelism warmUp rounds threads clients floodSeconds floodRounds.
 */
public final class Argon2Bench {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final int QUEUE = 8;

    private record Sample(long nanos, long cpuNanos, long bytes) {
    }

    private record Flood(double perSecond, double cpuMsPerHash, long collections, long gcMillis, long refused) {
    }

    public static void main(String[] args) throws Exception {
        int memory = Integer.parseInt(args[0]);
        int iterations = Integer.parseInt(args[1]);
        int parallelism = Integer.parseInt(args[2]);
        int warmUp = Integer.parseInt(args[3]);
        int rounds = Integer.parseInt(args[4]);
        int threads = Integer.parseInt(args[5]);
        int clients = Integer.parseInt(args[6]);
        int floodSeconds = Integer.parseInt(args[7]);
        int floodRounds = Integer.parseInt(args[8]);
        byte[] password = "correct horse battery staple".getBytes();
        byte[] salt = "0123456789abcdef".getBytes();
        Argon2Cost cost = new Argon2Cost(memory, iterations, parallelism);
        // every hashing thread's blocks, with the 4 working blocks each hash takes from the pool too
        Argon2BytesGenerator.FixedBlockPool blockPool = new Argon2BytesGenerator.FixedBlockPool(
                threads * Argon2BytesGenerator.getBlockCount(memory, parallelism));
        Supplier<byte[]> bouncyCastle = () -> {
            Argon2BytesGenerator generator = new Argon2BytesGenerator();
            generator.init(new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                    .withVersion(Argon2Parameters.ARGON2_VERSION_13).withMemoryAsKB(memory).withIterations(iterations)
                    .withParallelism(parallelism).withSalt(salt).withBlockPool(blockPool).build());
            byte[] tag = new byte[32];
            generator.generateBytes(password, tag);
            return tag;
        };
        Supplier<byte[]> pylon = () -> ThreadLocalArgon2id.hash(cost, password, salt, 32);
        if (!Arrays.equals(bouncyCastle.get(), pylon.get())) {
            throw new AssertionError("the two implementations disagree");
        }
        System.out.printf("argon2id m=%d KiB t=%d p=%d; %s; %s; %d processors%n", memory, iterations, parallelism,
                Runtime.version(), gcNames(), Runtime.getRuntime().availableProcessors());

        for (int i = 0; i < warmUp; i++) {
            measure(bouncyCastle);
            measure(pylon);
        }
        Sample[] theirs = new Sample[rounds];
        Sample[] ours = new Sample[rounds];
        for (int i = 0; i < rounds; i++) {
            // alternate which goes first, so that neither always runs right after the other
            if (i % 2 == 0) {
                theirs[i] = measure(bouncyCastle);
                ours[i] = measure(pylon);
            } else {
                ours[i] = measure(pylon);
                theirs[i] = measure(bouncyCastle);
            }
        }
        System.out.printf("one thread, %d warm-up + %d interleaved rounds:%n", warmUp, rounds);
        report("Bouncy Castle 1.87", theirs);
        report("Pylon (former)", ours);
        System.out.printf("  median CPU ratio Pylon / Bouncy Castle: %.2f%n",
                median(ours, Sample::cpuNanos) / median(theirs, Sample::cpuNanos));

        System.out.printf("login flood: %d hashing threads, queue %d, %d clients, %d s per implementation and round:%n",
                threads, QUEUE, clients, floodSeconds);
        List<Flood> theirFloods = new ArrayList<>();
        List<Flood> ourFloods = new ArrayList<>();
        for (int round = 0; round < floodRounds; round++) {
            boolean theirsFirst = round % 2 == 0;
            for (int turn = 0; turn < 2; turn++) {
                boolean bc = theirsFirst == (turn == 0);
                Flood flood = flood(bc ? bouncyCastle : pylon, threads, clients, floodSeconds);
                (bc ? theirFloods : ourFloods).add(flood);
                System.out.printf("  round %d %-20s %6.1f hashes/s, %5.1f ms process CPU per hash, %3d collections "
                                + "(%d ms), %d refusals%n", round + 1, bc ? "Bouncy Castle 1.87" : "Pylon (former)",
                        flood.perSecond(), flood.cpuMsPerHash(), flood.collections(), flood.gcMillis(), flood.refused());
            }
        }
        double theirRate = theirFloods.stream().mapToDouble(Flood::perSecond).sorted().toArray()[floodRounds / 2];
        double ourRate = ourFloods.stream().mapToDouble(Flood::perSecond).sorted().toArray()[floodRounds / 2];
        System.out.printf("  median hashes/s: Bouncy Castle %.1f, Pylon %.1f, ratio Pylon / Bouncy Castle %.2f%n",
                theirRate, ourRate, ourRate / theirRate);
    }

    private static Sample measure(Supplier<byte[]> hash) {
        long bytes = THREADS.getCurrentThreadAllocatedBytes();
        long cpu = THREADS.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        hash.get();
        long nanos = System.nanoTime() - start;
        return new Sample(nanos, THREADS.getCurrentThreadCpuTime() - cpu,
                THREADS.getCurrentThreadAllocatedBytes() - bytes);
    }

    private static Flood flood(Supplier<byte[]> hash, int threads, int clients, int seconds) throws Exception {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(QUEUE), Thread.ofPlatform().name("bench-argon2-", 1).daemon(true).factory(),
                new ThreadPoolExecutor.AbortPolicy());
        pool.prestartAllCoreThreads();
        // one hash per thread before the clock starts: each thread's memory is in place, as in a running pod
        List<Future<byte[]>> first = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            first.add(pool.submit(hash::get));
        }
        for (Future<byte[]> future : first) {
            future.get();
        }
        AtomicLong done = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long collections = collections();
        long gcMillis = gcMillis();
        long cpu = OS.getProcessCpuTime();
        long start = System.nanoTime();
        List<Thread> flooders = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            flooders.add(Thread.ofVirtual().start(() -> {
                while (System.nanoTime() < deadline) {
                    try {
                        pool.submit(hash::get).get();
                        done.incrementAndGet();
                    } catch (RejectedExecutionException e) {
                        refused.incrementAndGet();
                        try {
                            Thread.sleep(5);   // a refused client comes straight back, as the flood does
                        } catch (InterruptedException interrupted) {
                            return;
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }));
        }
        for (Thread flooder : flooders) {
            flooder.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        long cpuNanos = OS.getProcessCpuTime() - cpu;
        pool.shutdownNow();
        long hashes = done.get();
        return new Flood(hashes / elapsed, cpuNanos / 1e6 / Math.max(1, hashes), collections() - collections,
                gcMillis() - gcMillis, refused.get());
    }

    private static long collections() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
    }

    private static String gcNames() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList()
                .toString();
    }

    private static void report(String name, Sample[] samples) {
        long[] nanos = Arrays.stream(samples).mapToLong(Sample::nanos).sorted().toArray();
        long p90 = nanos[(int) Math.ceil(nanos.length * 0.9) - 1];
        System.out.printf("  %-20s CPU per hash: median %.1f ms; wall: median %.1f ms, p90 %.1f ms; allocated per "
                        + "hash: median %s%n", name, median(samples, Sample::cpuNanos) / 1e6,
                median(samples, Sample::nanos) / 1e6, p90 / 1e6, bytes((long) median(samples, Sample::bytes)));
    }

    private static double median(Sample[] samples, java.util.function.ToLongFunction<Sample> field) {
        long[] values = Arrays.stream(samples).mapToLong(field).sorted().toArray();
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    }

    private static String bytes(long bytes) {
        return bytes >= 1 << 20 ? String.format("%.1f MiB", bytes / 1048576.0)
                : String.format("%.1f KiB", bytes / 1024.0);
    }
}
