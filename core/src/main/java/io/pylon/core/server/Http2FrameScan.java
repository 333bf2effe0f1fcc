package io.pylon.core.server;

/**
 * Follows the frames of an HTTP/2 connection in the bytes read for it, to refuse the one flood Helidon 4.5.0 takes
 * without a bound: a header block continued by CONTINUATION frames without end. Helidon bounds a block's bytes (the
 * largest header list) but not its frames, and keeps each frame it gets until the block ends: empty CONTINUATION
 * frames, 9 bytes each on the wire, grow the heap by about 60 bytes each, so one client fills any heap within seconds.
 * A header block may have at most {@link #MAX_CONTINUATIONS} CONTINUATION frames (nghttp2's default bound): a client
 * needs more only for a block larger than any the listener takes, or when it splits a block into frames of under 2 KiB.
 * The bytes start with the connection preface, then frames.
 *
 * <p>Threading: confined to the connection's thread (its reads).
 */
final class Http2FrameScan {
    static final int MAX_CONTINUATIONS = 8;
    private static final int PREFACE_LENGTH = 24;
    private static final int FRAME_HEAD = 9;
    private static final int HEADERS = 1;
    private static final int PUSH_PROMISE = 5;
    private static final int CONTINUATION = 9;
    private static final int END_HEADERS = 4;

    private long skip = PREFACE_LENGTH;
    private final byte[] head = new byte[FRAME_HEAD];
    private int headFilled;
    private boolean inHeaderBlock;
    private int continuations;
    private boolean refused;

    /**
     * Follows {@code length} bytes from {@code offset}, the next ones of the connection.
     *
     * @return false once a header block had more CONTINUATION frames than allowed (and from then on)
     */
    boolean scan(byte[] bytes, int offset, int length) {
        int i = offset;
        int end = offset + length;
        while (i < end && !refused) {
            if (skip > 0) {
                int n = (int) Math.min(skip, end - i);
                skip -= n;
                i += n;
                continue;
            }
            int n = Math.min(FRAME_HEAD - headFilled, end - i);
            System.arraycopy(bytes, i, head, headFilled, n);
            headFilled += n;
            i += n;
            if (headFilled == FRAME_HEAD) {
                headFilled = 0;
                frame();
            }
        }
        return !refused;
    }

    boolean scan(byte[] bytes) {
        return scan(bytes, 0, bytes.length);
    }

    private void frame() {
        skip = ((head[0] & 0xffL) << 16) | ((head[1] & 0xffL) << 8) | (head[2] & 0xffL);
        int type = head[3] & 0xff;
        boolean endHeaders = (head[4] & END_HEADERS) != 0;
        if (type == HEADERS || type == PUSH_PROMISE) {
            inHeaderBlock = !endHeaders;
            continuations = 0;
        } else if (type == CONTINUATION && inHeaderBlock) {
            continuations++;
            refused = continuations > MAX_CONTINUATIONS;
            inHeaderBlock = !endHeaders;
        }
    }
}
