package io.pylon.worker.proxy;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Frame ends found in a stream however it is cut into reads: short, 16-bit and 64-bit lengths, masked or not. */
class FrameBoundaryTest {
    @Test
    void findsEveryFrameEndWhateverTheReads() {
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        List<Integer> ends = new ArrayList<>();
        for (int length : new int[]{0, 5, 125, 126, 300, 65_535, 65_536, 70_000}) {
            for (boolean masked : new boolean[]{false, true}) {
                stream.writeBytes(frame(0x82, length, masked));
                ends.add(stream.size());
            }
        }
        stream.writeBytes(FrameBoundary.closeFrame(1001, "Going Away", true).array());
        ends.add(stream.size());
        byte[] bytes = stream.toByteArray();

        for (int read : new int[]{1, 2, 3, 7, 13, 64, 1000, 65_536, bytes.length}) {
            FrameBoundary frames = new FrameBoundary();
            List<Integer> found = new ArrayList<>();
            for (int start = 0; start < bytes.length; start += read) {
                ByteBuffer chunk = ByteBuffer.wrap(bytes, start, Math.min(read, bytes.length - start)).slice();
                int at = 0;
                while (at < chunk.limit()) {
                    int stop = frames.pass(chunk, at, chunk.limit(), true);
                    if (frames.atFrameEnd() && stop > at) {
                        found.add(start + stop);
                    }
                    if (stop == at) { // already at an end: move on by one byte at least
                        stop = frames.pass(chunk, at, at + 1, false);
                    }
                    at = stop;
                }
            }
            assertThat(found).as("reads of " + read).containsExactlyElementsOf(ends);
            assertThat(frames.atFrameEnd()).isTrue();
        }
    }

    @Test
    void aCloseFrameToAServerIsMaskedAndCarriesItsCode() {
        ByteBuffer masked = FrameBoundary.closeFrame(1001, "Going Away", true);
        assertThat(masked.get(0)).isEqualTo((byte) 0x88);
        assertThat(masked.get(1) & 0x80).isEqualTo(0x80);
        int length = masked.get(1) & 0x7f;
        byte[] payload = new byte[length];
        for (int i = 0; i < length; i++) {
            payload[i] = (byte) (masked.get(6 + i) ^ masked.get(2 + (i & 3)));
        }
        assertThat(((payload[0] & 0xff) << 8) | (payload[1] & 0xff)).isEqualTo(1001);
        assertThat(new String(payload, 2, length - 2, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("Going Away");

        ByteBuffer plain = FrameBoundary.closeFrame(1001, "Going Away", false);
        assertThat(plain.remaining()).isEqualTo(2 + 12);
        assertThat(plain.get(2) & 0xff).isEqualTo(1001 >> 8);
    }

    private static byte[] frame(int first, int length, boolean masked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(first);
        int mask = masked ? 0x80 : 0;
        if (length < 126) {
            out.write(mask | length);
        } else if (length < 65_536) {
            out.write(mask | 126);
            out.write(length >> 8);
            out.write(length);
        } else {
            out.write(mask | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                out.write((int) ((long) length >> shift));
            }
        }
        if (masked) {
            out.writeBytes(new byte[]{1, 2, 3, 4});
        }
        out.writeBytes(new byte[length]);
        return out.toByteArray();
    }
}
