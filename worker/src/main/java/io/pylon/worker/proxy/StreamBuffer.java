package io.pylon.worker.proxy;

/** The fixed buffer a body streams through in either direction, never held whole. */
final class StreamBuffer {
    static final int SIZE = 16 * 1024;

    private StreamBuffer() {
    }

    /** A buffer for a body of {@code length} bytes (-1: unknown): no larger than the body, at most {@link #SIZE}. */
    static byte[] forLength(long length) {
        return new byte[length >= 0 && length < SIZE ? (int) Math.max(1, length) : SIZE];
    }
}
