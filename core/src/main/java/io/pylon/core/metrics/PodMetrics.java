package io.pylon.core.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmHeapPressureMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadDeadlockMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pylon.core.version.BuildInfo;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The meters of one pod. Enabled, it is a Prometheus registry with the JVM and process meters and
 * {@code pylon_build_info}; disabled ({@code pylon.metrics.enabled=false}) its registry is an empty composite, on
 * which every meter is a no-op, and {@link #enabled()} tells instrumentation to skip its own work.
 * <p>
 * Meters whose set of label values changes at run time (upstream pools, health checks) are refreshed by the
 * {@link #beforeScrape} hooks, which the endpoint runs before each scrape.
 * <p>
 * The JVM's meters are bound on a thread of their own while the pod starts: Micrometer's binders read the platform
 * MXBeans, about 30 ms of CPU taken off the main thread (on 2 busy cores the first health 200 did not move: it pays
 * where a core is free; BENCHMARKS.md, "Start-up and memory"). A scrape and
 * {@link #close} wait for that binding, so no scrape ever lacks them.
 * <p>
 * Thread-safe: the registry is, the hooks are a copy-on-write list, the binding is a future; scrapes may run
 * concurrently.
 */
public final class PodMetrics implements AutoCloseable {
    private final MeterRegistry registry;
    private final @Nullable PrometheusMeterRegistry prometheus;
    private final List<Runnable> beforeScrape = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> binders = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> jvmBound = new CompletableFuture<>();

    private PodMetrics(MeterRegistry registry, @Nullable PrometheusMeterRegistry prometheus) {
        this.registry = registry;
        this.prometheus = prometheus;
    }

    /** A pod's metrics: JVM, process and build info bound when enabled. */
    public static PodMetrics create(boolean enabled, String module, BuildInfo build) {
        if (!enabled) {
            return new PodMetrics(new CompositeMeterRegistry(), null);
        }
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        PodMetrics metrics = new PodMetrics(prometheus, prometheus);
        metrics.filterJvmMeters();
        Thread.ofPlatform().daemon().name("pylon-jvm-metrics").start(() -> {
            try {
                metrics.bindJvm();
                metrics.jvmBound.complete(null);
            } catch (RuntimeException | Error e) {
                metrics.jvmBound.completeExceptionally(e);
            }
        });
        Gauge.builder("pylon.build.info", () -> 1)
                .description("Build of the pod's module; always 1")
                .tags("module", module, "version", build.version(), "commit", build.commit())
                .register(prometheus);
        return metrics;
    }

    /** Before any meter is registered: Micrometer warns about, and does not apply to them, later filters. */
    private void filterJvmMeters() {
        // Micrometer's process.cpu.time is in nanoseconds ("_ns_total", which promtool rejects); the standard
        // process_cpu_seconds_total replaces it
        registry.config().meterFilter(MeterFilter.deny(id -> id.getName().equals("process.cpu.time")));
        // a gauge ending in _count reads as a histogram's part to promtool and PromQL users
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                return id.getName().equals("system.cpu.count") ? id.withName("system.cpus") : id;
            }
        });
    }

    private void bindJvm() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            FunctionCounter.builder("process.cpu", os, bean -> bean.getProcessCpuTime() / 1e9).baseUnit("seconds")
                    .description("CPU time the process used").register(registry);
        }
        new JvmMemoryMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        binders.add(gc);
        JvmHeapPressureMetrics pressure = new JvmHeapPressureMetrics();
        pressure.bindTo(registry);
        binders.add(pressure);
        new JvmThreadMetrics().bindTo(registry);
        new JvmThreadDeadlockMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    public boolean enabled() {
        return prometheus != null;
    }

    /** Where modules register their meters; every meter on it is a no-op when metrics are disabled. */
    public MeterRegistry registry() {
        return registry;
    }

    /** Runs before every scrape, to bring meters with changing label sets up to date; must be quick. */
    public void beforeScrape(Runnable hook) {
        beforeScrape.add(hook);
    }

    /** Writes every meter in the given format; only when {@link #enabled()}. */
    void scrape(OutputStream out, String contentType) throws IOException {
        awaitJvmMeters();
        for (Runnable hook : beforeScrape) {
            hook.run();
        }
        PrometheusMeterRegistry scraped = prometheus;
        if (scraped == null) {
            throw new IllegalStateException("metrics are disabled: nothing to scrape");
        }
        scraped.scrape(out, contentType);
    }

    /** A binder that failed leaves its meters out; the pod's own meters are still scraped. */
    private void awaitJvmMeters() {
        try {
            jvmBound.join();
        } catch (CompletionException e) {
            System.getLogger(PodMetrics.class.getName()).log(System.Logger.Level.WARNING,
                    "JVM meters not bound: " + (e.getCause() != null ? e.getCause() : e).getClass().getSimpleName());
        }
    }

    @Override
    public void close() throws Exception {
        if (prometheus != null) {
            awaitJvmMeters();
        }
        for (AutoCloseable binder : binders) {
            binder.close();
        }
        registry.close();
    }
}
