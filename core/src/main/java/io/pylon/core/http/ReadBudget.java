package io.pylon.core.http;

/**
 * A bound on the bytes one body read may pull from its connection. Helidon 4.5 decodes a chunked request body by
 * holding each chunk whole ({@code readBuffer} of the chunk's size) and reads a chunk's size line, and a trailer
 * line, until it ends, however long: without a bound one client makes the pod hold gigabytes (a chunk of 2 GiB, or a
 * size line that never ends). A handler that reads such a body sets a budget around each read; the connection's
 * socket reads spend it ({@code GuardedConnection}), and a read that would overspend fails with
 * {@link ExceededException} instead of pulling more.
 *
 * <p>Threading: an HTTP/1 request's handler runs on its connection's thread, which does the socket reads its body
 * read causes; the budget is kept per thread, set and cleared by that thread.
 */
public final class ReadBudget {
    private static final ThreadLocal<long[]> LEFT = ThreadLocal.withInitial(() -> new long[] {-1});

    private ReadBudget() {
    }

    /** A read under a budget pulled more than the budget allows; the connection must not be read any further. */
    public static final class ExceededException extends RuntimeException {
        ExceededException() {
            super("the read pulled more bytes from the connection than its budget", null, false, false);
        }
    }

    /** Starts a budget of {@code bytes} for the reads this thread does until {@link #end}. */
    public static void begin(long bytes) {
        LEFT.get()[0] = bytes;
    }

    /** Ends this thread's budget: its reads are unbounded again. */
    public static void end() {
        LEFT.get()[0] = -1;
    }

    /** Spends {@code bytes} of this thread's budget, if it has one; throws when that overspends it. */
    public static void spend(int bytes) {
        long[] left = LEFT.get();
        if (left[0] < 0) {
            return;
        }
        left[0] -= bytes;
        if (left[0] < 0) {
            throw new ExceededException();
        }
    }
}
