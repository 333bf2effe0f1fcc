package io.pylon.manager.auth.argon2;

import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

import java.lang.ref.SoftReference;

/**
 * Argon2id, version 0x13 (RFC 9106), computed by Bouncy Castle's {@link Argon2BytesGenerator} with its 1 KiB blocks
 * taken from a pool that keeps them from one hash to the next, so that a hash allocates little besides its tag
 * (about 0.1 MiB of block references at m = 19 MiB) instead of its whole memory. The pool keeps at most the blocks
 * that {@code threads} hashes of the {@code kept} cost need at once: blocks of a costlier hash (a stored hash of older
 * settings) beyond that are dropped when it ends. Bouncy Castle wipes every block before it goes back to the pool and
 * the pre-hash digest after each hash: early blocks are cheap functions of the password, so a heap dump must not find
 * them. The pool is held through a {@link SoftReference}: a pod that runs short of memory gets it back, and the next
 * hash makes a new one.
 *
 * <p>Threading: {@link #hash} may be called from any number of threads at once. Each call has a generator of its
 * own; the block pool is shared and synchronizes its own list; {@link #pool} is a volatile reference, and two threads
 * that find it cleared at the same moment each make a pool, one of which is kept (the other's blocks become garbage).
 */
public final class PooledArgon2id {
    private static final byte[] NONE = {};

    private final int keptBlocks;
    private volatile SoftReference<Argon2BytesGenerator.FixedBlockPool> pool = new SoftReference<>(null);

    /** A pool for {@code threads} hashes of the {@code kept} cost at once. */
    public PooledArgon2id(Argon2Cost kept, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("Argon2 hashing threads must be at least 1: " + threads);
        }
        this.keptBlocks = Math.multiplyExact(threads,
                Argon2BytesGenerator.getBlockCount(kept.memoryKib(), kept.parallelism()));
    }

    /** The {@code tagBytes}-byte Argon2id tag of {@code password} and {@code salt} (no secret, no associated data). */
    public byte[] hash(Argon2Cost cost, byte[] password, byte[] salt, int tagBytes) {
        return hash(cost, password, salt, NONE, NONE, tagBytes);
    }

    /** With a secret (K) and associated data (X), either of which may be empty: for RFC 9106's test vector. */
    byte[] hash(Argon2Cost cost, byte[] password, byte[] salt, byte[] secret, byte[] associatedData, int tagBytes) {
        if (salt.length < 8) {
            throw new IllegalArgumentException("Argon2 salt must be at least 8 bytes: " + salt.length);
        }
        if (tagBytes < 4) {
            throw new IllegalArgumentException("Argon2 tag must be at least 4 bytes: " + tagBytes);
        }
        Argon2Parameters parameters = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withMemoryAsKB(cost.memoryKib())
                .withIterations(cost.iterations())
                .withParallelism(cost.parallelism())
                .withSalt(salt)
                .withSecret(secret)
                .withAdditional(associatedData)
                .withBlockPool(blockPool())
                .build();
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(parameters);
        byte[] tag = new byte[tagBytes];
        try {
            generator.generateBytes(password, tag);
        } finally {
            parameters.clear();
        }
        return tag;
    }

    /** The blocks the pool may keep between hashes. */
    public int keptBlocks() {
        return keptBlocks;
    }

    private Argon2BytesGenerator.FixedBlockPool blockPool() {
        Argon2BytesGenerator.FixedBlockPool held = pool.get();
        if (held == null) {
            held = new Argon2BytesGenerator.FixedBlockPool(keptBlocks);
            pool = new SoftReference<>(held);
        }
        return held;
    }
}
