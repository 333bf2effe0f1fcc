package io.pylon.manager.auth.argon2;

import java.lang.ref.SoftReference;

/**
 * Argon2id on the calling thread with block memory kept from one hash to the next, so that a hash allocates only its
 * tag. Each thread has one {@link Argon2id} (its scratch blocks, a few KiB), held strongly by a {@link ThreadLocal},
 * and one block array, held by that object through a {@link SoftReference}: a pod idle for long gives the array back
 * when memory runs short, and the next hash allocates it again. The array grows when a hash needs more blocks than it
 * holds and then stays at the larger size.
 *
 * <p>Threading: nothing is shared between threads; meant for the few platform threads of the
 * {@link io.pylon.manager.auth.HashingPool} (on virtual threads each thread would allocate its own array).
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
