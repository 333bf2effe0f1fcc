package io.pylon.core.diagnostics;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Two threads deadlocked on purpose, each holding one lock and waiting for the other. The locks are taken
 * interruptibly so that the test can end the deadlock afterwards (monitors could never be released).
 */
final class Deadlock {
    private final Thread first;
    private final Thread second;

    private Deadlock(Thread first, Thread second) {
        this.first = first;
        this.second = second;
    }

    static Deadlock create(String firstName, String secondName) throws InterruptedException {
        ReentrantLock a = new ReentrantLock();
        ReentrantLock b = new ReentrantLock();
        CountDownLatch bothHoldOne = new CountDownLatch(2);
        Thread first = new Thread(() -> lockBoth(a, b, bothHoldOne), firstName);
        Thread second = new Thread(() -> lockBoth(b, a, bothHoldOne), secondName);
        first.setDaemon(true);
        second.setDaemon(true);
        first.start();
        second.start();
        DiagnosticsEndpointTest.waitUntil(() -> ManagementFactory.getThreadMXBean().findDeadlockedThreads() != null);
        return new Deadlock(first, second);
    }

    private static void lockBoth(ReentrantLock held, ReentrantLock wanted, CountDownLatch bothHoldOne) {
        held.lock();
        try {
            bothHoldOne.countDown();
            bothHoldOne.await();
            wanted.lockInterruptibly();
            wanted.unlock();
        } catch (InterruptedException e) {
            // the end of the deadlock
        } finally {
            held.unlock();
        }
    }

    void end() throws InterruptedException {
        first.interrupt();
        second.interrupt();
        first.join(5_000);
        second.join(5_000);
    }
}
