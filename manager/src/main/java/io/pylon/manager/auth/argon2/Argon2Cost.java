package io.pylon.manager.auth.argon2;

/**
 * The cost parameters of an Argon2id hash, valid by construction (RFC 9106 section 3.1): {@code parallelism} lanes
 * (1 to 2^24 - 1), {@code memoryKib} 1 KiB blocks (at least 8 per lane) and {@code iterations} passes (at least 1).
 */
public record Argon2Cost(int memoryKib, int iterations, int parallelism) {
    private static final int MAX_LANES = (1 << 24) - 1;

    public Argon2Cost {
        if (parallelism < 1 || parallelism > MAX_LANES) {
            throw new IllegalArgumentException("Argon2 parallelism must be 1 to 2^24-1: " + parallelism);
        }
        if (memoryKib < 8 * parallelism) {
            throw new IllegalArgumentException("Argon2 memory must be at least 8 KiB per lane: m=" + memoryKib
                    + ", p=" + parallelism);
        }
        if (iterations < 1) {
            throw new IllegalArgumentException("Argon2 iterations must be at least 1: " + iterations);
        }
    }

    /** Blocks actually used: m rounded down to a multiple of 4p (RFC 9106's m'). */
    public int blocks() {
        return 4 * parallelism * (memoryKib / (4 * parallelism));
    }
}
