package io.pylon.worker.testing;

import java.util.zip.CRC32;

/** Bodies for large-transfer tests: bytes that are not all alike, and a checksum to compare them by. */
public final class TestBodies {
    private TestBodies() {
    }

    /** {@code size} bytes of a pattern that does not repeat every 256 bytes. */
    public static byte[] pattern(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + (i >>> 8));
        }
        return bytes;
    }

    /** The CRC-32 of {@code bytes}. */
    public static long checksum(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return crc.getValue();
    }
}
