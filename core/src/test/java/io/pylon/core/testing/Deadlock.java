package io.pylon.core.testing;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Two threads deadlocked on purpose, each holding one lock and waiting for the other. The locks are taken
 * interruptibly so that the test can end the deadlock afterwards (monitors could never be released).
 */
public final class Deadlock {
    private final Thread first;
    private final Thread second;

    private Deadlock(Thread first, Thread second) {
        this.first = first;
        this.second = second;
    }

    /** Deadlocks two new threads with these names; returns once the JVM reports the deadlock (at most 10 s). */
    public static Deadlock create(String firstName, String secondName) throws InterruptedException {
        ReentrantLock a = new ReentrantLock();
        ReentrantLock b = new ReentrantLock();
        CountDownLatch bothHoldOne = new CountDownLatch(2);
        Thread first = new Thread(() -> lockBoth(a, b, bothHoldOne), firstName);
        Thread second = new Thread(() -> lockBoth(b, a, bothHoldOne), secondName);
        first.setDaemon(true);
        second.setDaemon(true);
        first.start();
        second.start();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (ManagementFactory.getThreadMXBean().findDeadlockedThreads() == null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no deadlock within 10 s");
            }
            Thread.sleep(10);
        }
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

    /** Ends the deadlock: both threads are interrupted, release their locks and end. */
    public void end() throws InterruptedException {
        first.interrupt();
        second.interrupt();
        first.join(5_000);
        second.join(5_000);
    }
}
