package io.pylon.core.pod;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;

/**
 * The executors of a pod, each named so that {@code threads} diagnostics can show it:
 * {@code <segment>-async} runs the module's asynchronous work (health checks, fan-out bookkeeping, module work),
 * {@code <segment>-maintenance} runs its periodic jobs. Modules may register more pools.
 *
 * <p>Threading: modules register pools from any thread while the pod starts and diagnostics read them from request
 * threads; the pool map and the listeners are guarded by this object's monitor.
 */
public final class PodExecutors implements AutoCloseable {
    private final ThreadPoolExecutor async;
    private final ScheduledThreadPoolExecutor maintenance;
    private final Map<String, ThreadPoolExecutor> pools = new LinkedHashMap<>();
    private final List<BiConsumer<String, ThreadPoolExecutor>> listeners = new ArrayList<>();
    private final String asyncName;
    private final String maintenanceName;

    public PodExecutors(String segment, int asyncThreads, int asyncQueue, int maintenanceThreads) {
        this.asyncName = segment + "-async";
        this.maintenanceName = segment + "-maintenance";
        this.async = new ThreadPoolExecutor(asyncThreads, asyncThreads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(asyncQueue), daemonThreads(asyncName), new ThreadPoolExecutor.AbortPolicy());
        this.async.allowCoreThreadTimeOut(true);
        this.maintenance = new ScheduledThreadPoolExecutor(maintenanceThreads, daemonThreads(maintenanceName));
        this.maintenance.setRemoveOnCancelPolicy(true);
        register(asyncName, async);
        register(maintenanceName, maintenance);
    }

    /** Bounded pool for asynchronous work; a full queue rejects with {@link java.util.concurrent.RejectedExecutionException}. */
    public ExecutorService async() {
        return async;
    }

    /** Scheduled pool for periodic jobs. */
    public ScheduledThreadPoolExecutor maintenance() {
        return maintenance;
    }

    /** Makes another pool visible in {@code threads} diagnostics, counting the tasks it rejects from now on. */
    public synchronized void register(String name, ThreadPoolExecutor pool) {
        if (!(pool.getRejectedExecutionHandler() instanceof CountingRejections)) {
            pool.setRejectedExecutionHandler(new CountingRejections(pool.getRejectedExecutionHandler()));
        }
        pools.put(name, pool);
        for (BiConsumer<String, ThreadPoolExecutor> listener : listeners) {
            listener.accept(name, pool);
        }
    }

    /** Calls the listener for every pool registered so far and for each one registered later (metrics). */
    public synchronized void onEachPool(BiConsumer<String, ThreadPoolExecutor> listener) {
        listeners.add(listener);
        pools.forEach(listener);
    }

    /** Tasks the pool rejected since it was registered (ThreadPoolExecutor keeps no such count itself). */
    public static long rejectedCount(ThreadPoolExecutor pool) {
        return pool.getRejectedExecutionHandler() instanceof CountingRejections counting ? counting.count.sum() : 0;
    }

    private record CountingRejections(RejectedExecutionHandler delegate, LongAdder count) implements RejectedExecutionHandler {
        CountingRejections(RejectedExecutionHandler delegate) {
            this(delegate, new LongAdder());
        }

        @Override
        public void rejectedExecution(Runnable task, ThreadPoolExecutor pool) {
            count.increment();
            delegate.rejectedExecution(task, pool);
        }
    }

    /** Every pool by name, the two standard ones first. */
    public synchronized Map<String, ThreadPoolExecutor> pools() {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(pools));
    }

    public String asyncName() {
        return asyncName;
    }

    public String maintenanceName() {
        return maintenanceName;
    }

    public static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public void close() {
        maintenance.shutdownNow();
        async.shutdown();
        try {
            async.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        async.shutdownNow();
    }
}
