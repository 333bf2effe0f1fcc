package io.pylon.manager.auth.argon2;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Argon2id, version 0x13 (RFC 9106), computing into block memory the caller owns and reuses: one flat {@code long[]}
 * of 128 longs per 1 KiB block. The compression function works on scratch blocks allocated once per instance, so a
 * hash allocates nothing. Lanes (p &gt; 1) are computed one after another on the calling thread, slice by slice,
 * which gives the reference output. The memory is wiped after each hash: early blocks are cheap functions of the
 * password (with t = 1 the first blocks of each lane are never overwritten), so a heap dump must not find them.
 *
 * <p>Threading: not thread-safe (scratch blocks and the per-hash fields below); one instance per thread, see
 * {@link ThreadLocalArgon2id}.
 */
public final class Argon2id {
    static final int BLOCK_LONGS = 128;
    private static final int BLOCK_BYTES = 1024;
    private static final int VERSION = 0x13;
    private static final int TYPE_ID = 2;
    private static final int SLICES = 4;
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final Blake2b blake2b = new Blake2b();
    private final long[] r = new long[BLOCK_LONGS];
    private final long[] before = new long[BLOCK_LONGS];
    private final long[] zero = new long[BLOCK_LONGS];
    private final long[] addressInput = new long[BLOCK_LONGS];
    private final long[] addresses = new long[BLOCK_LONGS];
    private final byte[] blockBytes = new byte[BLOCK_BYTES];
    private final byte[] seed = new byte[Blake2b.MAX_DIGEST_BYTES + 8]; // H0 || LE32(block) || LE32(lane)
    private final byte[] chain = new byte[Blake2b.MAX_DIGEST_BYTES];

    // the hash being computed
    private long[] memory;
    private int lanes;
    private int laneLength;
    private int segmentLength;

    /**
     * Computes the tag ({@code tag.length} bytes, at least 4) of {@code password} into {@code tag}, using the first
     * {@link Argon2Cost#memoryLongs()} longs of {@code memory}. {@code secret} (K) and {@code associatedData} (X) may
     * be empty.
     */
    public void hash(long[] memory, Argon2Cost cost, byte[] password, byte[] salt, byte[] secret,
                     byte[] associatedData, byte[] tag) {
        if (memory.length < cost.memoryLongs()) {
            throw new IllegalArgumentException("Argon2 memory array too small for " + cost.blocks() + " blocks");
        }
        if (salt.length < 8) {
            throw new IllegalArgumentException("Argon2 salt must be at least 8 bytes: " + salt.length);
        }
        if (tag.length < 4) {
            throw new IllegalArgumentException("Argon2 tag must be at least 4 bytes: " + tag.length);
        }
        this.memory = memory;
        this.lanes = cost.parallelism();
        this.laneLength = cost.blocks() / lanes;
        this.segmentLength = laneLength / SLICES;
        try {
            initialHash(cost, password, salt, secret, associatedData, tag.length);
            for (int lane = 0; lane < lanes; lane++) {
                firstBlock(lane, 0);
                firstBlock(lane, 1);
            }
            for (int pass = 0; pass < cost.iterations(); pass++) {
                for (int slice = 0; slice < SLICES; slice++) {
                    for (int lane = 0; lane < lanes; lane++) {
                        fillSegment(cost, pass, slice, lane);
                    }
                }
            }
            System.arraycopy(memory, (laneLength - 1) * BLOCK_LONGS, r, 0, BLOCK_LONGS);
            for (int lane = 1; lane < lanes; lane++) {
                int last = (lane * laneLength + laneLength - 1) * BLOCK_LONGS;
                for (int i = 0; i < BLOCK_LONGS; i++) {
                    r[i] ^= memory[last + i];
                }
            }
            for (int i = 0; i < BLOCK_LONGS; i++) {
                LONG_LE.set(blockBytes, i * 8, r[i]);
            }
            hashPrime(tag, tag.length, blockBytes, BLOCK_BYTES);
        } finally {
            Arrays.fill(memory, 0, (int) cost.memoryLongs(), 0L);
            Arrays.fill(r, 0L);
            Arrays.fill(before, 0L);
            Arrays.fill(blockBytes, (byte) 0);
            Arrays.fill(seed, (byte) 0);
            Arrays.fill(chain, (byte) 0);
            this.memory = null;
        }
    }

    // H0 into the first 64 bytes of seed (RFC 9106 section 3.2, step 1)
    private void initialHash(Argon2Cost cost, byte[] password, byte[] salt, byte[] secret, byte[] associatedData,
                             int tagLength) {
        blake2b.init(Blake2b.MAX_DIGEST_BYTES);
        blake2b.updateLe32(cost.parallelism());
        blake2b.updateLe32(tagLength);
        blake2b.updateLe32(cost.memoryKib());
        blake2b.updateLe32(cost.iterations());
        blake2b.updateLe32(VERSION);
        blake2b.updateLe32(TYPE_ID);
        lengthPrefixed(password);
        lengthPrefixed(salt);
        lengthPrefixed(secret);
        lengthPrefixed(associatedData);
        blake2b.finish(seed, 0);
    }

    private void lengthPrefixed(byte[] field) {
        blake2b.updateLe32(field.length);
        blake2b.update(field);
    }

    // B[lane][index] = H'^1024(H0 || LE32(index) || LE32(lane)) for index 0 and 1
    private void firstBlock(int lane, int index) {
        writeLe32(seed, Blake2b.MAX_DIGEST_BYTES, index);
        writeLe32(seed, Blake2b.MAX_DIGEST_BYTES + 4, lane);
        hashPrime(blockBytes, BLOCK_BYTES, seed, seed.length);
        int offset = (lane * laneLength + index) * BLOCK_LONGS;
        for (int i = 0; i < BLOCK_LONGS; i++) {
            memory[offset + i] = (long) LONG_LE.get(blockBytes, i * 8);
        }
    }

    private static void writeLe32(byte[] out, int offset, int value) {
        for (int i = 0; i < 4; i++) {
            out[offset + i] = (byte) (value >>> (8 * i));
        }
    }

    // The variable-length hash H'^T (RFC 9106 section 3.3) of input[0, inputLength) into out[0, outLength)
    private void hashPrime(byte[] out, int outLength, byte[] input, int inputLength) {
        blake2b.init(Math.min(outLength, Blake2b.MAX_DIGEST_BYTES));
        blake2b.updateLe32(outLength);
        blake2b.update(input, 0, inputLength);
        if (outLength <= Blake2b.MAX_DIGEST_BYTES) {
            blake2b.finish(out, 0);
            return;
        }
        int halves = (outLength + 31) / 32 - 2;
        blake2b.finish(chain, 0);
        System.arraycopy(chain, 0, out, 0, 32);
        for (int i = 1; i < halves; i++) {
            blake2b.init(Blake2b.MAX_DIGEST_BYTES);
            blake2b.update(chain, 0, Blake2b.MAX_DIGEST_BYTES);
            blake2b.finish(chain, 0);
            System.arraycopy(chain, 0, out, 32 * i, 32);
        }
        blake2b.init(outLength - 32 * halves);
        blake2b.update(chain, 0, Blake2b.MAX_DIGEST_BYTES);
        blake2b.finish(out, 32 * halves);
    }

    // RFC 9106 section 3.4, in the order of the reference implementation's fill_segment
    private void fillSegment(Argon2Cost cost, int pass, int slice, int lane) {
        boolean independent = pass == 0 && slice < SLICES / 2;
        if (independent) {
            Arrays.fill(addressInput, 0L);
            addressInput[0] = pass;
            addressInput[1] = lane;
            addressInput[2] = slice;
            addressInput[3] = cost.blocks();
            addressInput[4] = cost.iterations();
            addressInput[5] = TYPE_ID;
        }
        int start = 0;
        if (pass == 0 && slice == 0) {
            start = 2; // the first two blocks of each lane are made by firstBlock
            if (independent) {
                nextAddresses();
            }
        }
        int current = lane * laneLength + slice * segmentLength + start;
        int previous = current % laneLength == 0 ? current + laneLength - 1 : current - 1;
        for (int index = start; index < segmentLength; index++, current++, previous++) {
            if (current % laneLength == 1) {
                previous = current - 1;
            }
            long pseudoRandom;
            if (independent) {
                if (index % BLOCK_LONGS == 0) {
                    nextAddresses();
                }
                pseudoRandom = addresses[index % BLOCK_LONGS];
            } else {
                pseudoRandom = memory[previous * BLOCK_LONGS];
            }
            int refLane = pass == 0 && slice == 0 ? lane : (int) ((pseudoRandom >>> 32) % lanes);
            int refIndex = referenceIndex(pass, slice, index, pseudoRandom & 0xFFFFFFFFL, refLane == lane);
            fillBlock(memory, previous * BLOCK_LONGS, memory, (refLane * laneLength + refIndex) * BLOCK_LONGS,
                    memory, current * BLOCK_LONGS, pass > 0);
        }
    }

    private void nextAddresses() {
        addressInput[6]++;
        fillBlock(zero, 0, addressInput, 0, addresses, 0, false);
        fillBlock(zero, 0, addresses, 0, addresses, 0, false);
    }

    // Maps J1 to a block of the reference area (the reference implementation's index_alpha); all arithmetic is
    // unsigned 32-bit, done in longs
    private int referenceIndex(int pass, int slice, int index, long j1, boolean sameLane) {
        long area;
        if (pass == 0) {
            if (slice == 0) {
                area = index - 1;
            } else if (sameLane) {
                area = (long) slice * segmentLength + index - 1;
            } else {
                area = (long) slice * segmentLength + (index == 0 ? -1 : 0);
            }
        } else if (sameLane) {
            area = laneLength - segmentLength + index - 1;
        } else {
            area = laneLength - segmentLength + (index == 0 ? -1 : 0);
        }
        long relative = (j1 * j1) >>> 32;
        relative = area - 1 - ((area * relative) >>> 32);
        long start = pass == 0 || slice == SLICES - 1 ? 0 : (long) (slice + 1) * segmentLength;
        return (int) ((start + relative) % laneLength);
    }

    // The compression function G: next = P(prev ^ ref) ^ prev ^ ref, XORed into next's old value from the second pass
    private void fillBlock(long[] prevBlocks, int prev, long[] refBlocks, int ref, long[] nextBlocks, int next,
                           boolean xorInto) {
        for (int i = 0; i < BLOCK_LONGS; i++) {
            r[i] = prevBlocks[prev + i] ^ refBlocks[ref + i];
        }
        if (xorInto) {
            for (int i = 0; i < BLOCK_LONGS; i++) {
                before[i] = r[i] ^ nextBlocks[next + i];
            }
        } else {
            System.arraycopy(r, 0, before, 0, BLOCK_LONGS);
        }
        for (int i = 0; i < 8; i++) {
            int b = 16 * i;
            round(r, b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7, b + 8, b + 9, b + 10, b + 11, b + 12, b + 13,
                    b + 14, b + 15);
        }
        for (int i = 0; i < 8; i++) {
            int b = 2 * i;
            round(r, b, b + 1, b + 16, b + 17, b + 32, b + 33, b + 48, b + 49, b + 64, b + 65, b + 80, b + 81, b + 96,
                    b + 97, b + 112, b + 113);
        }
        for (int i = 0; i < BLOCK_LONGS; i++) {
            nextBlocks[next + i] = before[i] ^ r[i];
        }
    }

    // BLAKE2b's round without message words, with the multiplication of BlaMka (RFC 9106 section 3.6)
    private static void round(long[] v, int i0, int i1, int i2, int i3, int i4, int i5, int i6, int i7, int i8,
                              int i9, int i10, int i11, int i12, int i13, int i14, int i15) {
        long v0 = v[i0], v1 = v[i1], v2 = v[i2], v3 = v[i3], v4 = v[i4], v5 = v[i5], v6 = v[i6], v7 = v[i7];
        long v8 = v[i8], v9 = v[i9], v10 = v[i10], v11 = v[i11], v12 = v[i12], v13 = v[i13], v14 = v[i14];
        long v15 = v[i15];

        v0 = blaMka(v0, v4); v12 = ror(v12 ^ v0, 32); v8 = blaMka(v8, v12); v4 = ror(v4 ^ v8, 24);
        v0 = blaMka(v0, v4); v12 = ror(v12 ^ v0, 16); v8 = blaMka(v8, v12); v4 = ror(v4 ^ v8, 63);
        v1 = blaMka(v1, v5); v13 = ror(v13 ^ v1, 32); v9 = blaMka(v9, v13); v5 = ror(v5 ^ v9, 24);
        v1 = blaMka(v1, v5); v13 = ror(v13 ^ v1, 16); v9 = blaMka(v9, v13); v5 = ror(v5 ^ v9, 63);
        v2 = blaMka(v2, v6); v14 = ror(v14 ^ v2, 32); v10 = blaMka(v10, v14); v6 = ror(v6 ^ v10, 24);
        v2 = blaMka(v2, v6); v14 = ror(v14 ^ v2, 16); v10 = blaMka(v10, v14); v6 = ror(v6 ^ v10, 63);
        v3 = blaMka(v3, v7); v15 = ror(v15 ^ v3, 32); v11 = blaMka(v11, v15); v7 = ror(v7 ^ v11, 24);
        v3 = blaMka(v3, v7); v15 = ror(v15 ^ v3, 16); v11 = blaMka(v11, v15); v7 = ror(v7 ^ v11, 63);

        v0 = blaMka(v0, v5); v15 = ror(v15 ^ v0, 32); v10 = blaMka(v10, v15); v5 = ror(v5 ^ v10, 24);
        v0 = blaMka(v0, v5); v15 = ror(v15 ^ v0, 16); v10 = blaMka(v10, v15); v5 = ror(v5 ^ v10, 63);
        v1 = blaMka(v1, v6); v12 = ror(v12 ^ v1, 32); v11 = blaMka(v11, v12); v6 = ror(v6 ^ v11, 24);
        v1 = blaMka(v1, v6); v12 = ror(v12 ^ v1, 16); v11 = blaMka(v11, v12); v6 = ror(v6 ^ v11, 63);
        v2 = blaMka(v2, v7); v13 = ror(v13 ^ v2, 32); v8 = blaMka(v8, v13); v7 = ror(v7 ^ v8, 24);
        v2 = blaMka(v2, v7); v13 = ror(v13 ^ v2, 16); v8 = blaMka(v8, v13); v7 = ror(v7 ^ v8, 63);
        v3 = blaMka(v3, v4); v14 = ror(v14 ^ v3, 32); v9 = blaMka(v9, v14); v4 = ror(v4 ^ v9, 24);
        v3 = blaMka(v3, v4); v14 = ror(v14 ^ v3, 16); v9 = blaMka(v9, v14); v4 = ror(v4 ^ v9, 63);

        v[i0] = v0; v[i1] = v1; v[i2] = v2; v[i3] = v3; v[i4] = v4; v[i5] = v5; v[i6] = v6; v[i7] = v7;
        v[i8] = v8; v[i9] = v9; v[i10] = v10; v[i11] = v11; v[i12] = v12; v[i13] = v13; v[i14] = v14; v[i15] = v15;
    }

    private static long ror(long x, int bits) {
        return Long.rotateRight(x, bits);
    }

    private static long blaMka(long x, long y) {
        return x + y + 2 * (x & 0xFFFFFFFFL) * (y & 0xFFFFFFFFL);
    }
}
