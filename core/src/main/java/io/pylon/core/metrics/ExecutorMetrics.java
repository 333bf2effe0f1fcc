package io.pylon.core.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.pylon.core.pod.PodExecutors;

import java.util.concurrent.ThreadPoolExecutor;

/**
 * The meters of the pod's executors, labelled {@code executor=<pool name>}: active threads, pool size and maximum,
 * queued tasks, completed and rejected tasks. Bound for every pool {@link PodExecutors} has and every one a module
 * registers later; the values are read from the pools at scrape time.
 */
public final class ExecutorMetrics {
    private ExecutorMetrics() {
    }

    public static void bind(PodExecutors executors, PodMetrics metrics) {
        if (metrics.enabled()) {
            executors.onEachPool((name, pool) -> bind(name, pool, metrics.registry()));
        }
    }

    private static void bind(String name, ThreadPoolExecutor pool, MeterRegistry registry) {
        Tags tags = Tags.of("executor", name);
        Gauge.builder("pylon.executor.active", pool, ThreadPoolExecutor::getActiveCount).baseUnit("threads").tags(tags)
                .description("Threads running a task").register(registry);
        Gauge.builder("pylon.executor.pool.size", pool, ThreadPoolExecutor::getPoolSize).baseUnit("threads").tags(tags)
                .description("Threads of the pool").register(registry);
        Gauge.builder("pylon.executor.pool.max", pool, ThreadPoolExecutor::getMaximumPoolSize).baseUnit("threads")
                .tags(tags).description("Most threads the pool may have").register(registry);
        Gauge.builder("pylon.executor.queued", pool, p -> p.getQueue().size()).baseUnit("tasks").tags(tags)
                .description("Tasks waiting for a thread").register(registry);
        FunctionCounter.builder("pylon.executor.completed", pool, ThreadPoolExecutor::getCompletedTaskCount)
                .baseUnit("tasks").tags(tags).description("Tasks the pool finished").register(registry);
        FunctionCounter.builder("pylon.executor.rejected", pool, PodExecutors::rejectedCount).baseUnit("tasks")
                .tags(tags).description("Tasks the pool refused (queue full or shut down)").register(registry);
    }
}
