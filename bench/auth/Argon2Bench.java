import com.password4j.Argon2Function;
import com.password4j.types.Argon2;
import io.pylon.manager.auth.argon2.Argon2Cost;
import io.pylon.manager.auth.argon2.ThreadLocalArgon2id;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * Time and bytes allocated per Argon2id hash, password4j against Pylon's, interleaved in one JVM on one thread.
 * Arguments: memoryKib iterations parallelism warmUp rounds.
 */
public final class Argon2Bench {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private record Sample(long nanos, long bytes, long collections) {
    }

    public static void main(String[] args) {
        int memory = Integer.parseInt(args[0]);
        int iterations = Integer.parseInt(args[1]);
        int parallelism = Integer.parseInt(args[2]);
        int warmUp = Integer.parseInt(args[3]);
        int rounds = Integer.parseInt(args[4]);
        byte[] password = "correct horse battery staple".getBytes();
        byte[] salt = "0123456789abcdef".getBytes();
        Argon2Function password4j = Argon2Function.getInstance(memory, iterations, parallelism, 32, Argon2.ID);
        Argon2Cost cost = new Argon2Cost(memory, iterations, parallelism);
        LongSupplier theirs = () -> password4j.hash(password, salt).getBytes()[0];
        LongSupplier ours = () -> ThreadLocalArgon2id.hash(cost, password, salt, 32)[0];
        byte[] expected = password4j.hash(password, salt).getBytes();
        if (!Arrays.equals(expected, ThreadLocalArgon2id.hash(cost, password, salt, 32))) {
            throw new AssertionError("the two implementations disagree");
        }
        for (int i = 0; i < warmUp; i++) {
            measure(theirs);
            measure(ours);
        }
        Sample[] theirSamples = new Sample[rounds];
        Sample[] ourSamples = new Sample[rounds];
        for (int i = 0; i < rounds; i++) {
            // alternate which goes first, so that neither always runs right after the other's garbage
            if (i % 2 == 0) {
                theirSamples[i] = measure(theirs);
                ourSamples[i] = measure(ours);
            } else {
                ourSamples[i] = measure(ours);
                theirSamples[i] = measure(theirs);
            }
        }
        System.out.printf("argon2id m=%d KiB t=%d p=%d, %d warm-up + %d interleaved rounds, %s %s%n", memory,
                iterations, parallelism, warmUp, rounds, Runtime.version(), gcNames());
        report("password4j 1.8.4", theirSamples);
        report("Pylon (auth.argon2)", ourSamples);
        System.out.printf("median time ratio Pylon / password4j: %.2f%n",
                median(ourSamples, Sample::nanos) / median(theirSamples, Sample::nanos));
    }

    private static Sample measure(LongSupplier hash) {
        long collections = collections();
        long bytes = THREADS.getCurrentThreadAllocatedBytes();
        long start = System.nanoTime();
        hash.getAsLong();
        long nanos = System.nanoTime() - start;
        return new Sample(nanos, THREADS.getCurrentThreadAllocatedBytes() - bytes, collections() - collections);
    }

    private static long collections() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }

    private static String gcNames() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList()
                .toString();
    }

    private static void report(String name, Sample[] samples) {
        long[] nanos = Arrays.stream(samples).mapToLong(Sample::nanos).sorted().toArray();
        long p90 = nanos[(int) Math.ceil(nanos.length * 0.9) - 1];
        System.out.printf("%-20s time per hash: median %.1f ms, min %.1f ms, p90 %.1f ms; allocated per hash: "
                        + "median %s; collections during the %d hashes: %d%n", name,
                median(samples, Sample::nanos) / 1e6, nanos[0] / 1e6, p90 / 1e6,
                bytes((long) median(samples, Sample::bytes)), samples.length,
                Arrays.stream(samples).mapToLong(Sample::collections).sum());
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
