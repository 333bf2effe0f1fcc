package io.pylon.integration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pylon.integration.run.RunListener;
import io.pylon.integration.run.RunOutcome;
import io.pylon.integration.schedule.FlowScheduler;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Integration pod's meters: runs started and finished per flow and status (failures per flow are
 * {@code status="failed"}), runs executing per flow on this pod, how late runs start after their due time, and the
 * executions due and overdue in the shared database (the same on every pod; read once per scrape). Label sets are
 * bounded by the number of flows ({@code pylon.integration.max-flows}). Thread-safe: concurrent maps of meters and
 * atomics; runs report from their own threads.
 */
public final class IntegrationMeters implements RunListener {
    /** A due execution not picked after this long counts as overdue. */
    static final Duration OVERDUE_AFTER = Duration.ofSeconds(10);

    private final MeterRegistry registry;
    private final ConcurrentMap<String, AtomicInteger> running = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> started = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> finished = new ConcurrentHashMap<>();
    private final Timer startDelay;
    private final AtomicLong due = new AtomicLong();
    private final AtomicLong overdue = new AtomicLong();

    public IntegrationMeters(MeterRegistry registry) {
        this.registry = registry;
        this.startDelay = Timer.builder("pylon.integration.run.start.delay")
                .description("How long after its due time a run started on this pod")
                .publishPercentileHistogram()
                .maximumExpectedValue(Duration.ofMinutes(5))
                .register(registry);
        Gauge.builder("pylon.integration.due", due, AtomicLong::get)
                .description("Executions due in the shared database and not yet picked by any pod").register(registry);
        Gauge.builder("pylon.integration.overdue", overdue, AtomicLong::get)
                .description("Executions due for longer than " + OVERDUE_AFTER.toSeconds() + " s and not yet picked")
                .register(registry);
    }

    /** Reads due and overdue executions from the database. */
    public void refresh(FlowScheduler scheduler) {
        long[] counts = scheduler.dueAndOverdue(OVERDUE_AFTER);
        due.set(counts[0]);
        overdue.set(counts[1]);
    }

    public long due() {
        return due.get();
    }

    public long overdue() {
        return overdue.get();
    }

    /** Runs executing on this pod, per flow. */
    public java.util.Map<String, Integer> running() {
        java.util.Map<String, Integer> out = new java.util.TreeMap<>();
        running.forEach((flow, n) -> {
            if (n.get() > 0) {
                out.put(flow, n.get());
            }
        });
        return out;
    }

    @Override
    public void started(String flow, String runId, Duration delay) {
        running.computeIfAbsent(flow, f -> {
            AtomicInteger n = new AtomicInteger();
            Gauge.builder("pylon.integration.runs.running", n, AtomicInteger::get).tag("flow", f)
                    .description("Runs of the flow executing on this pod").register(registry);
            return n;
        }).incrementAndGet();
        started.computeIfAbsent(flow, f -> Counter.builder("pylon.integration.runs.started").tag("flow", f)
                .description("Runs started on this pod (a run taken over after a pod died counts again)")
                .register(registry)).increment();
        startDelay.record(delay.isNegative() ? Duration.ZERO : delay);
    }

    @Override
    public void finished(String flow, String runId, RunOutcome outcome) {
        AtomicInteger n = running.get(flow);
        if (n != null) {
            n.decrementAndGet();
        }
        finished.computeIfAbsent(flow + "\u0000" + outcome.status(), k -> Counter.builder("pylon.integration.runs.finished")
                .tag("flow", flow).tag("status", outcome.status())
                .description("Runs finished on this pod, by status").register(registry)).increment();
    }
}
