package io.pylon.core.server;

import io.helidon.common.buffers.BufferData;
import org.jspecify.annotations.Nullable;

import java.util.function.IntConsumer;

/**
 * Follows the frames of an HTTP/2 connection in the bytes read for it, to refuse the floods Helidon 4.5.0 takes
 * without a bound:
 * <ul>
 *   <li>A header block continued by CONTINUATION frames without end. Helidon bounds a block's bytes (the largest
 *   header list) but not its frames, and keeps each frame it gets until the block ends: empty CONTINUATION frames,
 *   9 bytes each on the wire, grow the heap by about 60 bytes each, so one client fills any heap within seconds. A
 *   header block may have at most {@link #MAX_CONTINUATIONS} CONTINUATION frames (nghttp2's default bound): a client
 *   needs more only for a block larger than any the listener takes, or when it splits a block into frames of under
 *   2 KiB.</li>
 *   <li>Frames that carry nothing of a request or an answer (PING, SETTINGS, PRIORITY, WINDOW_UPDATE, unknown types),
 *   sent without end: each costs a read and a dispatch, some an answer. nginx's rule bounds them: the connection is
 *   refused once an eighth of all the bytes read exceeds the payload exchanged (DATA and header blocks, read and
 *   written) by more than {@link #FLOOD_ALLOWANCE}. A client that requests and uploads, or downloads (its
 *   WINDOW_UPDATEs are a few bytes per answer's kilobytes), stays far below it.</li>
 * </ul>
 * The bytes read start with the connection preface, then frames. It also tells the connection of each stream the
 * client resets (RST_STREAM), so that the stream's request stops waiting on its upstream, and since when the client
 * has left something other than a request body unfinished ({@link #unfinishedSince}: the preface, a frame's head, a
 * frame other than DATA, a header block), which the listener bounds by its header timeout as nginx does. And it
 * corrects the GOAWAY Helidon writes when it ends a connection for an error ({@link #written}).
 *
 * <p>Threading: {@link #scan} is confined to the connection's thread (its reads) and publishes
 * {@link #unfinishedSince} through a volatile field the listener's sweeper reads; {@link #written} is called by the
 * threads that write frames, one at a time (Helidon's connection writer holds a lock around each frame's write), and
 * publishes its count through a volatile field the reads see; the highest stream opened is written by {@link #scan}
 * and read by {@link #written}, through a volatile field.
 */
final class Http2FrameScan {
    static final int MAX_CONTINUATIONS = 8;
    static final long FLOOD_ALLOWANCE = 1024 * 1024;
    private static final int FLOOD_RATIO = 8;
    private static final int PREFACE_LENGTH = 24;
    private static final int FRAME_HEAD = 9;
    private static final int DATA = 0;
    private static final int HEADERS = 1;
    private static final int RST_STREAM = 3;
    private static final int PUSH_PROMISE = 5;
    private static final int GOAWAY = 7;
    private static final int GOAWAY_LENGTH = 8;
    private static final int CONTINUATION = 9;
    private static final int END_HEADERS = 4;

    private long skip = PREFACE_LENGTH;
    // the type of the frame whose payload is being skipped; -1 while the preface is
    private int type = -1;
    private volatile long unfinishedSince;
    private final byte[] head = new byte[FRAME_HEAD];
    private int headFilled;
    private boolean inHeaderBlock;
    private int continuations;
    private long bytesRead;
    private long payloadRead;
    private volatile long payloadWritten;
    // the highest stream the client opened (a HEADERS frame read), for the GOAWAY Helidon writes
    private volatile int highestStream;
    private @Nullable String refusal;
    private final IntConsumer resets;

    /** @param resets told the stream id of each RST_STREAM frame read, on the connection's thread */
    Http2FrameScan(IntConsumer resets) {
        this.resets = resets;
    }

    /**
     * Follows {@code length} bytes from {@code offset}, the next ones read from the connection.
     *
     * @return false once the connection is refused (and from then on): {@link #refusal} says why
     */
    boolean scan(byte[] bytes, int offset, int length) {
        int i = offset;
        int end = offset + length;
        while (i < end && refusal == null) {
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
        bytesRead += length;
        if (refusal == null && bytesRead / FLOOD_RATIO > payloadRead + payloadWritten + FLOOD_ALLOWANCE) {
            refusal = "Too many frames without payload";
        }
        boolean unfinished = headFilled > 0 || inHeaderBlock || (skip > 0 && type != DATA);
        if (!unfinished) {
            unfinishedSince = 0;
        } else if (unfinishedSince == 0) {
            unfinishedSince = System.nanoTime();
        }
        return refusal == null;
    }

    /**
     * Since when (System.nanoTime) the bytes read end in the middle of something other than a request body: the
     * preface, a frame's head, the payload of a frame other than DATA, or a header block whose last CONTINUATION has
     * not come; 0 when they end at a frame's end or in a DATA frame's payload. A request body's pace is the body
     * timeout's.
     */
    long unfinishedSince() {
        return unfinishedSince;
    }

    /** Why the connection is refused, or null while it is not. */
    @Nullable String refusal() {
        return refusal;
    }

    /**
     * Notes a frame written to the client, whole in {@code frame} (as Helidon writes each): its payload counts when
     * it carries a request's or an answer's bytes. Anything else (several frames in one write) counts as no payload.
     *
     * @return what to write: {@code frame}, or in place of a GOAWAY naming stream 0 as the last it acted on, after the
     *     client opened streams, the same GOAWAY naming the highest of them. Helidon 4.5 ends a connection for an error
     *     (a malformed request, a flood) with such a GOAWAY while other streams of it may be at their upstreams; RFC
     *     9113 section 6.8 lets a client send the streams above the last one named again on a new connection, so a
     *     POST an upstream already took would be sent twice.
     */
    BufferData written(BufferData frame) {
        int n = frame.available();
        if (n < FRAME_HEAD) {
            return frame;
        }
        int length = (frame.get(0) << 16) | (frame.get(1) << 8) | frame.get(2);
        int type = frame.get(3);
        if (length + FRAME_HEAD == n && (type == DATA || type == HEADERS || type == CONTINUATION)) {
            payloadWritten += length; // one writer at a time (see the threading rule)
        }
        int highest = highestStream;
        if (type == GOAWAY && length >= GOAWAY_LENGTH && length + FRAME_HEAD == n && highest > 0
                && (frame.get(9) | frame.get(10) | frame.get(11) | frame.get(12)) == 0) {
            byte[] bytes = new byte[n];
            frame.read(bytes);
            bytes[9] = (byte) (highest >>> 24);
            bytes[10] = (byte) (highest >>> 16);
            bytes[11] = (byte) (highest >>> 8);
            bytes[12] = (byte) highest;
            return BufferData.create(bytes);
        }
        return frame;
    }

    /** The highest stream the client opened so far, 0 before any. */
    int highestStream() {
        return highestStream;
    }

    boolean scan(byte[] bytes) {
        return scan(bytes, 0, bytes.length);
    }

    private void frame() {
        skip = ((head[0] & 0xffL) << 16) | ((head[1] & 0xffL) << 8) | (head[2] & 0xffL);
        type = head[3] & 0xff;
        boolean endHeaders = (head[4] & END_HEADERS) != 0;
        if (type == DATA || type == HEADERS || type == CONTINUATION) {
            payloadRead += skip;
        } else if (type == RST_STREAM) {
            resets.accept(((head[5] & 0x7f) << 24) | ((head[6] & 0xff) << 16) | ((head[7] & 0xff) << 8)
                    | (head[8] & 0xff));
        }
        if (type == HEADERS) {
            int stream = ((head[5] & 0x7f) << 24) | ((head[6] & 0xff) << 16) | ((head[7] & 0xff) << 8) | (head[8] & 0xff);
            if (stream > highestStream) {
                highestStream = stream; // written by the connection's thread only
            }
        }
        if (type == HEADERS || type == PUSH_PROMISE) {
            inHeaderBlock = !endHeaders;
            continuations = 0;
        } else if (type == CONTINUATION && inHeaderBlock) {
            continuations++;
            if (continuations > MAX_CONTINUATIONS) {
                refusal = "Too many CONTINUATION frames";
            }
            inHeaderBlock = !endHeaders;
        }
    }
}
