package io.pylon.core.broadcast;

import java.util.concurrent.Semaphore;

/**
 * The bytes of answers that one broadcast may read off their connections before their turn to be written: a peer
 * whose answer announces its length reads it at once while the total stays within the budget, so the writer finds
 * small answers ready instead of handing every pod's turn to its thread and waiting for it; answers beyond the budget
 * (thread dumps) wait in their sockets as before. The aggregator so holds at most this budget plus the answer being
 * written. A reservation is released once its answer is written or has failed.
 *
 * <p>Thread-safe: peer threads reserve, the writer releases.
 */
final class ReadAhead {
    private final Semaphore bytes;

    ReadAhead(int budgetBytes) {
        this.bytes = new Semaphore(budgetBytes);
    }

    /** @return whether {@code length} bytes fit in what is left of the budget now (never waits) */
    boolean tryReserve(long length) {
        return length >= 0 && length <= Integer.MAX_VALUE && bytes.tryAcquire((int) length);
    }

    void release(long length) {
        if (length > 0) {
            bytes.release((int) length);
        }
    }

    int available() {
        return bytes.availablePermits();
    }
}
