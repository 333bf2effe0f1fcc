package io.pylon.manager.auth.argon2;

import java.lang.ref.SoftReference;

/**
 * Argon2id on the calling thread with block memory kept from one hash to the next, so that a hash allocates only its
 * tag. Each thread has one {@link Argon2id} (its scratch blocks, a few KiB), held strongly by a {@link ThreadLocal},
 * and one block array, held by that object through a {@link SoftReference}: a pod idle for long gives the array back
 * when memory runs short, and the next hash allocates it again. The array grows when a hash needs more blocks than it
 * holds and then stays at the larger size; {@link #hashWithoutKeeping} is for a cost that should not be kept.
 *
 * <p>Threading: nothing is shared between threads; meant for the few platform threads of the Manager's hashing
 * pool (on virtual threads each thread would allocate its own array).
 */
public final class ThreadLocalArgon2id {
    private static final ThreadLocal<ThreadLocalArgon2id> CURRENT = ThreadLocal.withInitial(ThreadLocalArgon2id::new);

    private static final byte[] NONE = {};

    private final Argon2id argon2id = new Argon2id();
    private SoftReference<long[]> memory = new SoftReference<>(null);

    private ThreadLocalArgon2id() {
    }

    /** The {@code tagBytes}-byte Argon2id tag of {@code password} and {@code salt} (no secret, no associated data). */
    public static byte[] hash(Argon2Cost cost, byte[] password, byte[] salt, int tagBytes) {
        byte[] tag = new byte[tagBytes];
        CURRENT.get().hashInto(cost, password, salt, tag);
        return tag;
    }

    /**
     * Like {@link #hash}, in block memory of its own that is dropped afterwards: for a cost above what the thread
     * should keep (a stored hash asking for more than the settings), so that one such hash does not leave every hashing
     * thread holding the larger array.
     */
    public static byte[] hashWithoutKeeping(Argon2Cost cost, byte[] password, byte[] salt, int tagBytes) {
        byte[] tag = new byte[tagBytes];
        CURRENT.get().argon2id.hash(new long[Math.toIntExact(cost.memoryLongs())], cost, password, salt, NONE, NONE, tag);
        return tag;
    }

    /** The longs of block memory the calling thread holds now (0 when none). */
    static long heldLongs() {
        long[] held = CURRENT.get().memory.get();
        return held == null ? 0 : held.length;
    }

    private void hashInto(Argon2Cost cost, byte[] password, byte[] salt, byte[] tag) {
        argon2id.hash(memoryFor(cost), cost, password, salt, NONE, NONE, tag);
    }

    private long[] memoryFor(Argon2Cost cost) {
        long[] held = memory.get();
        if (held == null || held.length < cost.memoryLongs()) {
            held = new long[Math.toIntExact(cost.memoryLongs())];
            memory = new SoftReference<>(held);
        }
        return held;
    }
}
