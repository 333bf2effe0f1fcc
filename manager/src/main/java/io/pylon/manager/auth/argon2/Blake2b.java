package io.pylon.manager.auth.argon2;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Unkeyed BLAKE2b (RFC 7693) with a digest of 1 to 64 bytes, for Argon2's H and H'. An instance is reused from one
 * digest to the next ({@link #init}, {@link #update}, {@link #finish}) and allocates nothing after construction.
 *
 * <p>Threading: not thread-safe; each {@link Argon2id} owns one.
 */
final class Blake2b {
    static final int MAX_DIGEST_BYTES = 64;
    private static final int BLOCK_BYTES = 128;
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long[] IV = {
        0x6a09e667f3bcc908L, 0xbb67ae8584caa73bL, 0x3c6ef372fe94f82bL, 0xa54ff53a5f1d36f1L,
        0x510e527fade682d1L, 0x9b05688c2b3e6c1fL, 0x1f83d9abfb41bd6bL, 0x5be0cd19137e2179L};
    private static final byte[][] SIGMA = {
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
        {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
        {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
        {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
        {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
        {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
        {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
        {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
        {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
        {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
        {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

    private final long[] h = new long[8];
    private final long[] v = new long[16];
    private final long[] m = new long[16];
    private final byte[] buffer = new byte[BLOCK_BYTES];
    private int buffered;
    private long counter;
    private int digestBytes;

    /** Starts a new digest of {@code digestBytes} (1 to 64) bytes. */
    void init(int digestBytes) {
        if (digestBytes < 1 || digestBytes > MAX_DIGEST_BYTES) {
            throw new IllegalArgumentException("BLAKE2b digest length must be 1 to 64 bytes: " + digestBytes);
        }
        this.digestBytes = digestBytes;
        System.arraycopy(IV, 0, h, 0, 8);
        h[0] ^= 0x01010000L ^ digestBytes; // parameter block: digest length, no key, fanout 1, depth 1
        buffered = 0;
        counter = 0;
    }

    void update(byte[] input, int offset, int length) {
        while (length > 0) {
            // the last block must be compressed with the final flag, so a full buffer waits for more input
            if (buffered == BLOCK_BYTES) {
                counter += BLOCK_BYTES;
                compress(false);
                buffered = 0;
            }
            int n = Math.min(length, BLOCK_BYTES - buffered);
            System.arraycopy(input, offset, buffer, buffered, n);
            buffered += n;
            offset += n;
            length -= n;
        }
    }

    void update(byte[] input) {
        update(input, 0, input.length);
    }

    /** Adds a 32-bit little-endian integer (Argon2's LE32). */
    void updateLe32(int value) {
        for (int i = 0; i < 4; i++) {
            if (buffered == BLOCK_BYTES) {
                counter += BLOCK_BYTES;
                compress(false);
                buffered = 0;
            }
            buffer[buffered++] = (byte) (value >>> (8 * i));
        }
    }

    /** Writes the digest to {@code out} at {@code offset}; the instance must be {@link #init}ed again before reuse. */
    void finish(byte[] out, int offset) {
        counter += buffered;
        Arrays.fill(buffer, buffered, BLOCK_BYTES, (byte) 0);
        compress(true);
        for (int i = 0; i < digestBytes; i++) {
            out[offset + i] = (byte) (h[i >>> 3] >>> (8 * (i & 7)));
        }
        Arrays.fill(buffer, (byte) 0);
    }

    private void compress(boolean last) {
        for (int i = 0; i < 16; i++) {
            m[i] = (long) LONG_LE.get(buffer, i * 8);
        }
        System.arraycopy(h, 0, v, 0, 8);
        System.arraycopy(IV, 0, v, 8, 8);
        v[12] ^= counter; // the counter's high word stays 0: Argon2 never hashes 2^64 bytes
        if (last) {
            v[14] = ~v[14];
        }
        for (byte[] s : SIGMA) {
            mix(0, 4, 8, 12, m[s[0]], m[s[1]]);
            mix(1, 5, 9, 13, m[s[2]], m[s[3]]);
            mix(2, 6, 10, 14, m[s[4]], m[s[5]]);
            mix(3, 7, 11, 15, m[s[6]], m[s[7]]);
            mix(0, 5, 10, 15, m[s[8]], m[s[9]]);
            mix(1, 6, 11, 12, m[s[10]], m[s[11]]);
            mix(2, 7, 8, 13, m[s[12]], m[s[13]]);
            mix(3, 4, 9, 14, m[s[14]], m[s[15]]);
        }
        for (int i = 0; i < 8; i++) {
            h[i] ^= v[i] ^ v[i + 8];
        }
    }

    private void mix(int a, int b, int c, int d, long x, long y) {
        v[a] += v[b] + x;
        v[d] = Long.rotateRight(v[d] ^ v[a], 32);
        v[c] += v[d];
        v[b] = Long.rotateRight(v[b] ^ v[c], 24);
        v[a] += v[b] + y;
        v[d] = Long.rotateRight(v[d] ^ v[a], 16);
        v[c] += v[d];
        v[b] = Long.rotateRight(v[b] ^ v[c], 63);
    }
}
