package io.pylon.manager.auth;

import io.pylon.manager.auth.argon2.Argon2Cost;
import io.pylon.manager.auth.argon2.Argon2idPhc;
import io.pylon.manager.auth.argon2.PooledArgon2id;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Argon2id password hashes in the PHC string format ({@code $argon2id$v=19$m=19456,t=2,p=1$salt$hash}). A stored
 * hash is verified with the parameters written in it, so changing the settings affects only new hashes. Every hash and
 * verification runs on the {@link HashingPool}, never on the calling (virtual) thread; when the pool is full they
 * throw a 429 {@link io.pylon.manager.api.ApiException} with {@code Retry-After}. The Argon2 blocks are kept between
 * hashes for as many hashes as the pool runs at once ({@link PooledArgon2id}), so hashing makes next to no garbage.
 * The UTF-8 bytes of a password are wiped once hashed.
 *
 * <p>Threading: called from any thread; the work runs on the {@link HashingPool}'s threads. Immutable apart from the
 * {@link SecureRandom} and the {@link PooledArgon2id}, both thread-safe.
 */
public final class PasswordHasher {
    private static final int SALT_BYTES = 16;
    private static final int HASH_BYTES = 32;
    /**
     * The most memory a stored hash may ask for, unless the settings ask for more: 64 MiB. A tampered row with
     * m = 2^31 KiB would otherwise make the pod allocate 2 TiB (or, below the heap's size, hold it per hashing thread).
     */
    static final int MAX_STORED_MEMORY_KIB = 64 * 1024;
    /** The most passes a stored hash may ask for, unless the settings ask for more: 10 (about 5x the default cost). */
    static final int MAX_STORED_ITERATIONS = 10;
    /** The most lanes a stored hash may have (the setting's maximum); lanes split the memory and add no cost. */
    static final int MAX_STORED_PARALLELISM = 64;

    private final Argon2Cost cost;
    private final Argon2idPhc dummyHash;
    private final SecureRandom random = new SecureRandom();
    private final HashingPool pool;
    private final PooledArgon2id argon2id;

    public PasswordHasher(int memoryKib, int iterations, int parallelism, HashingPool pool) {
        this.pool = pool;
        this.cost = new Argon2Cost(memoryKib, iterations, parallelism);
        this.argon2id = new PooledArgon2id(cost, pool.threads());
        this.dummyHash = new Argon2idPhc(cost, randomBytes(SALT_BYTES), randomBytes(HASH_BYTES));
    }

    private byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }

    public String hash(String password) {
        return pool.run(() -> {
            byte[] salt = randomBytes(SALT_BYTES);
            byte[] passwordBytes = password.getBytes(StandardCharsets.UTF_8);
            try {
                return new Argon2idPhc(cost, salt, argon2id.hash(cost, passwordBytes, salt, HASH_BYTES)).format();
            } finally {
                Arrays.fill(passwordBytes, (byte) 0);
            }
        });
    }

    /**
     * Whether the password matches the stored hash. With no stored hash (unknown user), or one that cannot be read or
     * asks for too much, it verifies against a dummy hash of the current cost and answers false, so that an unknown
     * username takes as long as a known one. Never throws for a bad stored hash and never logs it.
     */
    public boolean verify(String password, @Nullable String storedHash) {
        return pool.run(() -> verifyHere(password, storedHash));
    }

    private boolean verifyHere(String password, @Nullable String storedHash) {
        Argon2idPhc stored = Argon2idPhc.parse(storedHash);
        if (stored == null || !withinBounds(stored.cost())) {
            matches(password, dummyHash);
            return false;
        }
        return matches(password, stored);
    }

    private boolean withinBounds(Argon2Cost stored) {
        return stored.memoryKib() <= Math.max(MAX_STORED_MEMORY_KIB, cost.memoryKib())
                && stored.iterations() <= Math.max(MAX_STORED_ITERATIONS, cost.iterations())
                && stored.parallelism() <= Math.max(MAX_STORED_PARALLELISM, cost.parallelism());
    }

    // A stored hash costlier in memory than the settings (older settings, or a tampered row within the bounds) takes
    // the blocks beyond what the pool keeps from the heap, and they are dropped when it ends.
    private boolean matches(String password, Argon2idPhc stored) {
        byte[] passwordBytes = password.getBytes(StandardCharsets.UTF_8);
        try {
            byte[] computed = argon2id.hash(stored.cost(), passwordBytes, stored.salt(), stored.hash().length);
            return MessageDigest.isEqual(computed, stored.hash());
        } finally {
            Arrays.fill(passwordBytes, (byte) 0);
        }
    }

    /** The parameters of new hashes, for the benchmark and the docs: {@code argon2id m=19456 KiB, t=2, p=1}. */
    public String describe() {
        return "argon2id m=" + cost.memoryKib() + " KiB, t=" + cost.iterations() + ", p=" + cost.parallelism() + ", "
                + HASH_BYTES + "-byte hash, " + SALT_BYTES + "-byte salt";
    }
}
