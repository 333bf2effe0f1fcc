package io.pylon.distribution.cli;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/**
 * Threads for the CLI's parallel calls: platform threads, not virtual ones. A virtual thread's first socket call
 * starts the JDK's I/O poller threads, which then wait in {@code epoll_wait} (native code) for the rest of the process,
 * and the JVM, before it exits, waits up to 300 ms for threads in native code to stop: 0.3 s added to every command
 * that called from a virtual thread (BENCHMARKS.md, "CLI"). A command runs a handful of calls at a time.
 */
public final class CallThreads {
    private CallThreads() {
    }

    /** One daemon platform thread per task, named {@code <name>-<n>}. */
    public static ExecutorService perTask(String name) {
        return Executors.newThreadPerTaskExecutor(factory(name));
    }

    /** Daemon platform threads named {@code <name>-<n>}. */
    public static ThreadFactory factory(String name) {
        return Thread.ofPlatform().daemon().name(name + "-", 0).factory();
    }
}
