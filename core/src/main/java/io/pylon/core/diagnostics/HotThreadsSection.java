package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code hotthreads}: every platform thread's CPU time and stack, sampled {@code samples} times {@code interval}
 * apart after a first reading; per thread the CPU milliseconds used over the whole span, its last state, its stack,
 * and {@code stuck} when its top frames (methods, without line numbers) were the same in every reading while it was
 * not an idle pool worker.
 * Virtual threads are invisible to {@code ThreadMXBean}: their CPU is counted in the carrier threads of the virtual
 * thread scheduler, which are listed and marked {@code carrier}; which virtual thread a carrier ran is not exposed
 * by the JDK (the answer says so under {@code virtualThreads}).
 *
 * <p>Threading: sampling state lives in each call's locals; the MXBean is thread-safe. Heavy: a call holds a permit
 * of the pod's heavy-call limit for its whole interval.
 */
final class HotThreadsSection implements DiagnosticSection {
    static final Duration MIN_INTERVAL = Duration.ofMillis(10);
    static final Duration MAX_INTERVAL = Duration.ofSeconds(5);
    static final Duration MAX_SPAN = Duration.ofSeconds(10);
    /** Frames compared across readings to call a thread stuck. */
    static final int STUCK_FRAMES = 8;
    private static final int STACK_DEPTH = 24;
    /** Frames where a pool worker waits for work: a thread sitting there is idle, not stuck (method, then classes). */
    private static final Map<String, Set<String>> IDLE_FRAMES = Map.of(
            "getTask", Set.of("java.util.concurrent.ThreadPoolExecutor"),
            "awaitWork", Set.of("java.util.concurrent.ForkJoinPool"),
            "take", Set.of("java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue"),
            "waitForReferencePendingList", Set.of("java.lang.ref.Reference"),
            "remove", Set.of("java.lang.ref.ReferenceQueue"),
            "accept", Set.of("sun.nio.ch.Net"),
            "wait", Set.of("sun.nio.ch.EPoll"));

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    @Override
    public String name() {
        return "hotthreads";
    }

    @Override
    public String key() {
        return "hotThreads";
    }

    @Override
    public boolean heavy() {
        return true;
    }

    @Override
    public boolean inAll() {
        return false;
    }

    @Override
    public Object collect() throws Exception {
        return collect(DiagnosticsQuery.EMPTY);
    }

    /** Interval, samples and top of a call, checked together (their product is bounded too). */
    record Parameters(Duration interval, int samples, int top) {
        static Parameters of(DiagnosticsQuery query) {
            Duration interval = query.duration("interval", Duration.ofMillis(200), MIN_INTERVAL, MAX_INTERVAL);
            int samples = query.integer("samples", 5, 1, 50);
            int top = query.integer("top", 10, 1, 500);
            if (interval.multipliedBy(samples).compareTo(MAX_SPAN) > 0) {
                throw new InvalidParameterException("samples", "The query parameters 'interval' x 'samples' may span at most "
                        + DiagnosticsQuery.show(MAX_SPAN) + ", not " + DiagnosticsQuery.show(interval.multipliedBy(samples)) + ".");
            }
            return new Parameters(interval, samples, top);
        }
    }

    @Override
    public void validate(String method, DiagnosticsQuery query) {
        Parameters.of(query);
    }

    @Override
    public Object collect(DiagnosticsQuery query) throws Exception {
        Parameters p = Parameters.of(query);
        boolean cpu = threads.isThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
        long t0 = System.nanoTime();
        // The first reading fixes the threads looked at (ids are never reused, so a thread present in the first and
        // the last reading lived through all of them) and reads every stack. A thread's CPU clock counts every
        // nanosecond it runs, so a thread whose clock stood still since its stack was read did not run and still has
        // that stack: later readings read CPU times, and stacks only of the threads that ran. The parked and blocked
        // threads, most of a pod's, cost one stack walk per call. Readings between the first and the last only
        // decide 'stuck', so they look only at the threads whose top frames have not changed yet.
        long[] ids = threads.getAllThreadIds();
        ThreadInfo[] firstInfos = threads.getThreadInfo(ids, STACK_DEPTH);
        long[] firstCpu = cpuTimes(ids, cpu);
        long sampleNanos = System.nanoTime() - t0;
        Sampled[] sampled = new Sampled[ids.length];
        for (int i = 0; i < ids.length; i++) {
            if (firstInfos[i] != null) {
                sampled[i] = new Sampled(ids[i], firstInfos[i], firstCpu[i]);
            }
        }
        for (int reading = 1; reading <= p.samples(); reading++) {
            Thread.sleep(p.interval());
            long s0 = System.nanoTime();
            boolean last = reading == p.samples();
            restack(sampled, !last, cpu);
            sampleNanos = Math.max(sampleNanos, System.nanoTime() - s0);
        }
        List<Sampled> seen = new ArrayList<>(ids.length);
        for (Sampled s : sampled) {
            if (s != null) {
                s.finish();
                seen.add(s);
            }
        }
        long spanNanos = System.nanoTime() - t0;
        List<Sampled> ranked = seen.stream().sorted(Comparator.comparingLong(Sampled::cpuNanos).reversed()
                .thenComparing(s -> s.name)).limit(p.top()).toList();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("interval", p.interval().toMillis());
        answer.put("samples", p.samples());
        answer.put("top", p.top());
        answer.put("spanMillis", spanNanos / 1_000_000);
        answer.put("maxSampleMillis", Math.round(sampleNanos / 1_000.0) / 1_000.0);
        answer.put("cpuTimeSupported", cpu);
        answer.put("threadCount", seen.size());
        answer.put("stuckCount", seen.stream().filter(Sampled::stuck).count());
        List<Map<String, Object>> list = new ArrayList<>();
        for (Sampled s : ranked) {
            list.add(s.toMap(spanNanos));
        }
        answer.put("threads", list);
        answer.put("stuckStacks", stuckStacks(seen));
        answer.put("virtualThreads", Map.of("listed", false, "note",
                "Virtual threads have no CPU time of their own in the JDK: their CPU shows in the carrier threads of the "
                        + "virtual thread scheduler (carrier: true), whose stacks do not show the virtual thread mounted."));
        return answer;
    }

    /**
     * One reading after the first: the CPU times of the threads looked at (every thread, or only those whose top
     * frames have not changed yet), and the stacks of those among them that ran since their stack was read.
     */
    private void restack(Sampled[] sampled, boolean candidatesOnly, boolean cpu) {
        int[] at = new int[sampled.length];
        int count = 0;
        for (int i = 0; i < sampled.length; i++) {
            if (sampled[i] != null && (!candidatesOnly || sampled[i].sameTop)) {
                at[count++] = i;
            }
        }
        long[] ids = new long[count];
        for (int k = 0; k < count; k++) {
            ids[k] = sampled[at[k]].id;
        }
        long[] times = cpuTimes(ids, cpu);
        int ran = 0;
        for (int k = 0; k < count; k++) {
            Sampled s = sampled[at[k]];
            s.lastCpu = times[k];
            if (!cpu || times[k] != s.cpuAtStack) {
                at[ran] = at[k];
                ids[ran] = ids[k];
                s.cpuAtStack = times[k];
                ran++;
            }
        }
        ThreadInfo[] infos = threads.getThreadInfo(Arrays.copyOf(ids, ran), STACK_DEPTH);
        for (int k = 0; k < ran; k++) {
            if (infos[k] == null) {
                sampled[at[k]] = null; // it ended
            } else {
                sampled[at[k]].restacked(infos[k]);
            }
        }
    }

    private long[] cpuTimes(long[] ids, boolean cpu) {
        if (!cpu) {
            long[] none = new long[ids.length];
            Arrays.fill(none, -1);
            return none;
        }
        if (threads instanceof com.sun.management.ThreadMXBean bulk) {
            return bulk.getThreadCpuTime(ids);
        }
        long[] times = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            times[i] = threads.getThreadCpuTime(ids[i]);
        }
        return times;
    }

    /**
     * One thread across the readings of one call. Its top frames are compared by class and method name in place;
     * strings are made only for what the answer shows.
     */
    private static final class Sampled {
        final long id;
        final String name;
        final StackTraceElement[] firstTop;
        final long firstCpu;
        /** The CPU time when {@link #last} was read. */
        long cpuAtStack;
        long lastCpu;
        /** The thread's latest stack and state: read at the latest reading after which it ran. */
        ThreadInfo last;
        boolean sameTop = true;
        boolean stuck;

        Sampled(long id, ThreadInfo first, long cpu) {
            this.id = id;
            this.name = first.getThreadName();
            this.firstTop = first.getStackTrace();
            this.firstCpu = cpu;
            this.cpuAtStack = cpu;
            this.lastCpu = cpu;
            this.last = first;
        }

        // Without line numbers: a thread spinning in one loop, or parked at one call, keeps the same methods.
        void restacked(ThreadInfo info) {
            last = info;
            sameTop = sameTop && new TopFrames(firstTop).equals(new TopFrames(info.getStackTrace()));
        }

        void finish() {
            stuck = sameTop && firstTop.length > 0 && !idle();
        }

        long cpuNanos() {
            return firstCpu < 0 || lastCpu < 0 ? 0 : lastCpu - firstCpu;
        }

        boolean stuck() {
            return stuck;
        }

        private boolean idle() {
            for (StackTraceElement frame : last.getStackTrace()) {
                if (IDLE_FRAMES.getOrDefault(frame.getMethodName(), Set.of()).contains(frame.getClassName())) {
                    return true;
                }
            }
            return false;
        }

        /** A carrier of the virtual thread scheduler with a virtual thread mounted at the last reading. */
        boolean carrier() {
            for (StackTraceElement frame : last.getStackTrace()) {
                if (frame.getClassName().equals("java.lang.VirtualThread")
                        || frame.getClassName().equals("jdk.internal.vm.Continuation")) {
                    return true;
                }
            }
            return false;
        }

        Map<String, Object> toMap(long spanNanos) {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("id", id);
            map.put("name", name);
            map.put("state", last.getThreadState().name());
            map.put("cpuMillis", Math.round(cpuNanos() / 1_000.0) / 1_000.0);
            map.put("cpuPercent", spanNanos == 0 ? 0.0 : Math.round(cpuNanos() * 1000.0 / spanNanos) / 10.0);
            map.put("stuck", stuck());
            if (carrier()) {
                map.put("carrier", true);
            }
            if (last.getLockName() != null) {
                map.put("lockName", last.getLockName());
            }
            map.put("stack", frames(last.getStackTrace(), STACK_DEPTH));
            return map;
        }
    }

    /** The top frames of a stack by class and method name (no line numbers), as a map key. */
    private record TopFrames(StackTraceElement[] stack) {
        int size() {
            return Math.min(stack.length, STUCK_FRAMES);
        }

        List<String> names() {
            List<String> names = new ArrayList<>(size());
            for (int i = 0; i < size(); i++) {
                names.add(stack[i].getClassName() + "." + stack[i].getMethodName());
            }
            return names;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof TopFrames other) || other.size() != size()) {
                return false;
            }
            for (int i = 0; i < size(); i++) {
                if (!stack[i].getMethodName().equals(other.stack[i].getMethodName())
                        || !stack[i].getClassName().equals(other.stack[i].getClassName())) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int hashCode() {
            int hash = size();
            for (int i = 0; i < size(); i++) {
                hash = 31 * (31 * hash + stack[i].getClassName().hashCode()) + stack[i].getMethodName().hashCode();
            }
            return hash;
        }

        @Override
        public String toString() {
            return names().toString();
        }
    }

    /** Every stuck thread of this pod (not only the top ones), grouped by its top frames, largest group first. */
    private static List<Map<String, Object>> stuckStacks(List<Sampled> seen) {
        // keyed by the frames themselves: the strings are made once per group, not per thread
        Map<TopFrames, List<String>> groups = new LinkedHashMap<>();
        for (Sampled s : seen) {
            if (s.stuck()) {
                groups.computeIfAbsent(new TopFrames(s.firstTop), k -> new ArrayList<>()).add(s.name);
            }
        }
        List<Map<String, Object>> list = new ArrayList<>();
        groups.entrySet().stream().sorted(Comparator.comparingInt((Map.Entry<TopFrames, List<String>> e) -> e.getValue().size()).reversed())
                .forEach(e -> {
                    Map<String, Object> group = new LinkedHashMap<>();
                    group.put("frames", e.getKey().names());
                    group.put("threads", e.getValue().size());
                    group.put("threadNames", e.getValue().stream().sorted().limit(10).toList());
                    list.add(group);
                });
        return list;
    }

    static List<String> frames(StackTraceElement[] stack, int depth) {
        List<String> frames = new ArrayList<>(Math.min(depth, stack.length));
        for (int i = 0; i < stack.length && i < depth; i++) {
            StackTraceElement f = stack[i];
            frames.add(f.getClassName() + "." + f.getMethodName()
                    + (f.getLineNumber() >= 0 ? ":" + f.getLineNumber() : f.isNativeMethod() ? " (native)" : ""));
        }
        return frames;
    }

    @Override
    public boolean aggregates() {
        return true;
    }

    @Override
    public Object aggregate(List<JsonNode> pods) {
        return StuckStacks.group(pods, key());
    }
}
