package io.pylon.distribution.cli;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI's calls run on platform threads: a virtual thread's socket call would leave the JDK's poller threads in
 * native code, and the JVM waits up to 300 ms for those before it exits (BENCHMARKS.md, "CLI").
 */
class CallThreadsTest {

    @Test
    void callsRunOnDaemonPlatformThreadsNamedForTheCommand() throws Exception {
        try (ExecutorService threads = CallThreads.perTask("pylon-test-call")) {
            Future<Thread> first = threads.submit(Thread::currentThread);
            Future<Thread> second = threads.submit(Thread::currentThread);
            for (Thread thread : new Thread[]{first.get(), second.get()}) {
                assertThat(thread.isVirtual()).isFalse();
                assertThat(thread.isDaemon()).as("a daemon: never keeps a finished command's JVM alive").isTrue();
                assertThat(thread.getName()).startsWith("pylon-test-call-");
            }
            assertThat(first.get()).isNotSameAs(second.get());
        }
    }

    @Test
    void theFactoryMakesUnstartedDaemonPlatformThreads() {
        Thread thread = CallThreads.factory("top-fetch").newThread(() -> { });
        assertThat(thread.isVirtual()).isFalse();
        assertThat(thread.isDaemon()).isTrue();
        assertThat(thread.getState()).isEqualTo(Thread.State.NEW);
        assertThat(thread.getName()).isEqualTo("top-fetch-0");
    }
}
