package io.pylon.manager.auth;

import com.password4j.Argon2Function;
import com.password4j.Password;
import com.password4j.types.Argon2;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Argon2id password hashes in the PHC string format ({@code $argon2id$v=19$m=19456,t=2,p=1$salt$hash}). A stored
 * hash is verified with the parameters written in it, so changing the settings affects only new hashes. Every hash and
 * verification runs on the {@link HashingPool}, never on the calling (virtual) thread; when the pool is full they
 * throw a 429 {@link io.pylon.manager.api.ApiException} with {@code Retry-After}.
 */
public final class PasswordHasher {
    private static final int SALT_BYTES = 16;
    private static final int HASH_BYTES = 32;

    private final Argon2Function function;
    private final String dummyHash;
    private final HashingPool pool;

    public PasswordHasher(int memoryKib, int iterations, int parallelism, HashingPool pool) {
        this.pool = pool;
        this.function = Argon2Function.getInstance(memoryKib, iterations, parallelism, HASH_BYTES, Argon2.ID);
        this.dummyHash = dummyHash(memoryKib, iterations, parallelism);
    }

    // A PHC string with the current parameters and random salt and hash: verifying against it costs exactly what a real
    // verification costs and never succeeds, without spending a hash computation at start-up.
    private static String dummyHash(int memoryKib, int iterations, int parallelism) {
        SecureRandom random = new SecureRandom();
        byte[] salt = new byte[SALT_BYTES];
        byte[] hash = new byte[HASH_BYTES];
        random.nextBytes(salt);
        random.nextBytes(hash);
        Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
        return "$argon2id$v=19$m=" + memoryKib + ",t=" + iterations + ",p=" + parallelism + "$"
                + b64.encodeToString(salt) + "$" + b64.encodeToString(hash);
    }

    public String hash(String password) {
        return pool.run(() -> Password.hash(password).addRandomSalt(SALT_BYTES).with(function).getResult());
    }

    /**
     * Whether the password matches the stored hash. With no stored hash (unknown user) it verifies against a dummy
     * hash of the same cost and answers false, so that an unknown username takes as long as a known one.
     */
    public boolean verify(String password, String storedHash) {
        return pool.run(() -> verifyHere(password, storedHash));
    }

    private boolean verifyHere(String password, String storedHash) {
        if (storedHash == null) {
            Password.check(password, dummyHash).with(function);
            return false;
        }
        try {
            return Password.check(password, storedHash).with(Argon2Function.getInstanceFromHash(storedHash));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The parameters of new hashes, for the benchmark and the docs: {@code argon2id m=19456 KiB, t=2, p=1}. */
    public String describe() {
        return "argon2id m=" + function.getMemory() + " KiB, t=" + function.getIterations() + ", p="
                + function.getParallelism() + ", " + HASH_BYTES + "-byte hash, " + SALT_BYTES + "-byte salt";
    }
}
