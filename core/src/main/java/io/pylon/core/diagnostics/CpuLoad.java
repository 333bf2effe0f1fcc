package io.pylon.core.diagnostics;

import org.jspecify.annotations.Nullable;

import java.lang.management.ManagementFactory;

/**
 * Process and system CPU load, sampled at most once a second. The JDK computes each load over the time since its
 * previous call, reading {@code /proc} and the container's cgroup files every time: asked per request, that was the
 * largest part of a {@code jvm} answer's CPU, and two calls a millisecond apart measure a millisecond. Sampled once a
 * second, every answer costs nothing here and each figure spans about a second or more, as Actuator's
 * {@code process.cpu.usage} does.
 *
 * <p>Threading: called concurrently by request threads; the latest sample is an immutable value in a volatile field
 * (see {@link #current}).
 */
final class CpuLoad {
    private static final long REFRESH_NANOS = 1_000_000_000L;

    private final com.sun.management.OperatingSystemMXBean os;
    private volatile @Nullable Sample last;

    record Sample(long takenAtNanos, double process, double system) {
    }

    CpuLoad(com.sun.management.OperatingSystemMXBean os) {
        this.os = os;
    }

    /** The JVM's sampler: the loads are the process's, whatever number of pods it runs (tests, benchmarks). */
    static CpuLoad process() {
        return PerJvm.LOAD;
    }

    private static final class PerJvm {
        static final CpuLoad LOAD = new CpuLoad(
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean());
    }

    /**
     * The latest sample, taken now if the last is a second old. No lock: two callers at the turn of a second may both
     * read the JDK, which costs what every call cost before and leaves one of their samples in place.
     */
    Sample current() {
        long now = System.nanoTime();
        Sample sample = last;
        if (sample == null || now - sample.takenAtNanos() >= REFRESH_NANOS) {
            sample = new Sample(now, os.getProcessCpuLoad(), os.getCpuLoad());
            last = sample;
        }
        return sample;
    }
}
