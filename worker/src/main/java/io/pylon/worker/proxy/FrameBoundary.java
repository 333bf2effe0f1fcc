package io.pylon.worker.proxy;

import java.nio.ByteBuffer;
import java.security.SecureRandom;

/**
 * Where WebSocket frames end in one direction of a tunnel's byte stream (RFC 6455, section 5.2), so that the gateway
 * can put a close frame of its own between two frames without re-framing what it relays. Only headers are read;
 * payloads are skipped by their length.
 *
 * <p>Threading: confined to the thread that relays its direction.
 */
final class FrameBoundary {
    private static final SecureRandom MASKS = new SecureRandom(); // RFC 6455 5.3: masking keys must be unpredictable

    private final byte[] header = new byte[14];
    private int headerRead;
    private long payloadLeft;

    /** Whether the bytes passed so far end where a frame ends (or nothing passed yet). */
    boolean atFrameEnd() {
        return headerRead == 0 && payloadLeft == 0;
    }

    /**
     * Passes the bytes of {@code bytes} from {@code from} to {@code to} (absolute indexes; its position is not moved).
     *
     * @param stopAtFrameEnd stop right after the first frame end (at once when already at one)
     * @return the index it stopped at: {@code to}, or the first frame end when asked to stop there
     */
    int pass(ByteBuffer bytes, int from, int to, boolean stopAtFrameEnd) {
        int i = from;
        if (stopAtFrameEnd && atFrameEnd()) {
            return i;
        }
        while (i < to) {
            if (payloadLeft > 0) {
                long skip = Math.min(payloadLeft, to - i);
                payloadLeft -= skip;
                i += (int) skip;
                if (payloadLeft == 0 && stopAtFrameEnd) {
                    return i;
                }
                continue;
            }
            header[headerRead++] = bytes.get(i++);
            if (headerRead >= 2 && headerRead == headerLength()) {
                payloadLeft = payloadLength();
                headerRead = 0;
                if (payloadLeft == 0 && stopAtFrameEnd) {
                    return i;
                }
            }
        }
        return i;
    }

    private int headerLength() {
        int length7 = header[1] & 0x7f;
        int extended = length7 == 126 ? 2 : length7 == 127 ? 8 : 0;
        return 2 + extended + ((header[1] & 0x80) != 0 ? 4 : 0);
    }

    private long payloadLength() {
        int length7 = header[1] & 0x7f;
        if (length7 < 126) {
            return length7;
        }
        int bytes = length7 == 126 ? 2 : 8;
        long length = 0;
        for (int i = 0; i < bytes; i++) {
            length = (length << 8) | (header[2 + i] & 0xff);
        }
        return length < 0 ? Long.MAX_VALUE : length; // a top bit RFC 6455 forbids: no frame end to find
    }

    /** The gateway's close frame when its pod stops: {@code 1001 Going Away}; masked when it goes to an upstream. */
    static ByteBuffer goingAway(boolean masked) {
        return closeFrame(1001, "Going Away", masked);
    }

    /** A close frame with {@code code} and {@code reason}; masked (as a client's must be) when {@code masked}. */
    static ByteBuffer closeFrame(int code, String reason, boolean masked) {
        byte[] text = reason.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int length = 2 + text.length; // at most 125: the reasons are short constants
        ByteBuffer frame = ByteBuffer.allocate(2 + (masked ? 4 : 0) + length);
        frame.put((byte) 0x88).put((byte) ((masked ? 0x80 : 0) | length));
        byte[] payload = new byte[length];
        payload[0] = (byte) (code >> 8);
        payload[1] = (byte) code;
        System.arraycopy(text, 0, payload, 2, text.length);
        if (masked) {
            byte[] key = new byte[4];
            MASKS.nextBytes(key);
            frame.put(key);
            for (int i = 0; i < length; i++) {
                payload[i] ^= key[i & 3];
            }
        }
        return frame.put(payload).flip();
    }
}
