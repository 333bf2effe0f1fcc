package io.pylon.manager.auth;

import io.pylon.manager.api.ApiException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class HashingPoolTest {
    @Test
    void defaultThreadsLeaveOneCoreAndStayWithinTheDefaultHeap() {
        assertThat(HashingPool.defaultThreads(1)).isEqualTo(1);
        assertThat(HashingPool.defaultThreads(2)).isEqualTo(1);
        assertThat(HashingPool.defaultThreads(4)).isEqualTo(3);
        assertThat(HashingPool.defaultThreads(64)).as("19 MiB each: 4 fit the Manager's 192 MiB default heap").isEqualTo(4);
    }

    /**
     * One thread and one place in the queue take two tasks, however they arrive: a task handed to the idle thread
     * waits in the executor's queue until the thread takes it, and a second task arriving then was refused. (The
     * refusal of a third is SignInUnderAttackTest's, on a real pod.)
     */
    @Test
    void threadsPlusQueueTasksAreAlwaysTaken() throws Exception {
        for (int round = 0; round < 200; round++) {
            try (HashingPool pool = new HashingPool(1, 1)) {
                pool.run(() -> 0); // the thread now exists, idle on the queue
                CountDownLatch release = new CountDownLatch(1);
                AtomicInteger refused = new AtomicInteger();
                List<Thread> callers = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    callers.add(Thread.ofVirtual().start(() -> {
                        try {
                            pool.run(() -> release.await(10, TimeUnit.SECONDS));
                        } catch (ApiException e) {
                            refused.incrementAndGet();
                        }
                    }));
                }
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (pool.inFlight() + refused.get() < 2 && System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
                release.countDown();
                for (Thread caller : callers) {
                    caller.join(10_000);
                }
                assertThat(refused.get()).as("tasks refused of two, round %d", round).isZero();
            }
        }
    }
}
