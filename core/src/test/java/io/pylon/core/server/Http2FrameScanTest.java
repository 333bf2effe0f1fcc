package io.pylon.core.server;

import io.helidon.common.buffers.BufferData;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class Http2FrameScanTest {
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int DATA = 0;
    private static final int HEADERS = 1;
    private static final int PING = 6;
    private static final int GOAWAY = 7;
    private static final int WINDOW_UPDATE = 8;
    private static final int CONTINUATION = 9;
    private static final int END_HEADERS = 4;

    @Test
    void whatIsLeftUnfinishedIsNotedUntilItEndsExceptARequestBody() {
        Http2FrameScan scan = new Http2FrameScan(stream -> { });
        scan.scan(PREFACE, 0, 10);
        assertThat(scan.unfinishedSince()).as("half a preface").isNotZero();
        scan.scan(PREFACE, 10, PREFACE.length - 10);
        assertThat(scan.unfinishedSince()).as("the preface whole").isZero();

        byte[] ping = frame(PING, 0, 0, new byte[8]);
        scan.scan(ping, 0, 4);
        long since = scan.unfinishedSince();
        assertThat(since).as("a frame's head in part").isNotZero();
        scan.scan(ping, 4, 8);
        assertThat(scan.unfinishedSince()).as("the same frame, still in part: since its first part").isEqualTo(since);
        scan.scan(ping, 12, ping.length - 12);
        assertThat(scan.unfinishedSince()).as("the frame whole").isZero();

        scan.scan(frame(HEADERS, 0, 1, new byte[5]));
        assertThat(scan.unfinishedSince()).as("a header block without its end").isNotZero();
        scan.scan(frame(CONTINUATION, END_HEADERS, 1, new byte[5]));
        assertThat(scan.unfinishedSince()).as("the block ended").isZero();

        byte[] data = frame(DATA, 0, 1, new byte[100]);
        scan.scan(data, 0, 50);
        assertThat(scan.unfinishedSince()).as("a DATA frame in part: the body timeout's").isZero();
    }

    @Test
    void eightContinuationsPerBlockAreTakenBlockAfterBlock() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(PREFACE);
        for (int block = 0; block < 3; block++) {
            continued(bytes, 1 + 2 * block, Http2FrameScan.MAX_CONTINUATIONS);
        }
        assertThat(new Http2FrameScan(stream -> { }).scan(bytes.toByteArray())).isTrue();
    }

    @Test
    void aNinthContinuationIsRefusedAndStaysRefused() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(PREFACE);
        continued(bytes, 1, Http2FrameScan.MAX_CONTINUATIONS + 1);
        Http2FrameScan scan = new Http2FrameScan(stream -> { });
        assertThat(scan.scan(bytes.toByteArray())).isFalse();
        assertThat(scan.scan(frame(HEADERS, END_HEADERS, 3, new byte[3]))).isFalse();
    }

    @Test
    void framesAreFollowedWhateverTheReadSizes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(PREFACE);
        continued(bytes, 1, Http2FrameScan.MAX_CONTINUATIONS);
        bytes.writeBytes(frame(HEADERS, 0, 3, new byte[10]));
        for (int i = 0; i <= Http2FrameScan.MAX_CONTINUATIONS; i++) {
            bytes.writeBytes(frame(CONTINUATION, 0, 3, new byte[0]));
        }
        byte[] all = bytes.toByteArray();
        Http2FrameScan scan = new Http2FrameScan(stream -> { });
        int refusedAt = -1;
        for (int i = 0; i < all.length && refusedAt < 0; i++) {
            if (!scan.scan(all, i, 1)) {
                refusedAt = i;
            }
        }
        assertThat(refusedAt).isEqualTo(all.length - 1); // the last byte of the ninth frame's head
    }

    @Test
    void payloadBytesThatLookLikeFramesAreSkipped() {
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        for (int i = 0; i < 20; i++) {
            payload.writeBytes(frame(CONTINUATION, 0, 1, new byte[0]));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(PREFACE);
        bytes.writeBytes(frame(HEADERS, 0, 1, new byte[4]));
        bytes.writeBytes(frame(CONTINUATION, END_HEADERS, 1, new byte[0]));
        bytes.writeBytes(frame(DATA, 0, 1, payload.toByteArray()));
        bytes.writeBytes(frame(DATA, 1, 1, payload.toByteArray()));
        assertThat(new Http2FrameScan(stream -> { }).scan(bytes.toByteArray())).isTrue();
    }

    @Test
    void continuationsOutsideAHeaderBlockAreHelidonsToRefuse() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(PREFACE);
        for (int i = 0; i < 20; i++) {
            bytes.writeBytes(frame(CONTINUATION, 0, 1, new byte[0]));
        }
        // Helidon ends such a connection itself (a protocol error); the scan only bounds a block's length
        assertThat(new Http2FrameScan(stream -> { }).scan(bytes.toByteArray())).isTrue();
    }

    @Test
    void framesWithoutPayloadAreRefusedOnceAnEighthOfTheBytesExceedsTheAllowance() {
        Http2FrameScan scan = new Http2FrameScan(stream -> { });
        assertThat(scan.scan(PREFACE)).isTrue();
        byte[] windowUpdates = repeated(frame(WINDOW_UPDATE, 0, 0, new byte[]{0, 0, 0, 1}), 10_000); // 130,000 bytes
        long read = PREFACE.length;
        while (read + windowUpdates.length <= 8 * Http2FrameScan.FLOOD_ALLOWANCE) {
            assertThat(scan.scan(windowUpdates)).isTrue();
            read += windowUpdates.length;
        }
        assertThat(scan.scan(windowUpdates)).isFalse();
        assertThat(scan.refusal()).isEqualTo("Too many frames without payload");
        assertThat(scan.scan(frame(DATA, 0, 1, new byte[100_000]))).as("stays refused").isFalse();
    }

    @Test
    void payloadReadOrWrittenRaisesTheAllowance() {
        byte[] windowUpdates = repeated(frame(WINDOW_UPDATE, 0, 0, new byte[]{0, 0, 0, 1}), 100_000); // 1.3 MB
        Http2FrameScan uploads = new Http2FrameScan(stream -> { });
        uploads.scan(PREFACE);
        Http2FrameScan downloads = new Http2FrameScan(stream -> { });
        downloads.scan(PREFACE);
        for (int i = 0; i < 8; i++) { // 10.4 MB read: 1.3 MB an eighth, over the allowance alone
            assertThat(uploads.scan(frame(DATA, 0, 1, new byte[40_000]))).isTrue();
            assertThat(uploads.scan(windowUpdates)).isTrue();
            for (int j = 0; j < 3; j++) {
                downloads.written(BufferData.create(frame(DATA, 0, 1, new byte[16_384])));
            }
            assertThat(downloads.scan(windowUpdates)).isTrue();
        }
    }

    @Test
    void writtenFramesWithoutPayloadOrSeveralInOneWriteRaiseNothing() {
        Http2FrameScan scan = new Http2FrameScan(stream -> { });
        scan.scan(PREFACE);
        byte[] pings = repeated(frame(PING, 0, 0, new byte[8]), 10_000); // 170,000 bytes
        byte[] twoDataFrames = repeated(frame(DATA, 0, 1, new byte[16_384]), 2);
        boolean open = true;
        long read = PREFACE.length;
        while (open) {
            for (int i = 0; i < 10_000; i++) {
                scan.written(BufferData.create(frame(PING, 1, 0, new byte[8])));
            }
            scan.written(BufferData.create(twoDataFrames));
            open = scan.scan(pings);
            read += pings.length;
        }
        assertThat(read).isGreaterThan(8 * Http2FrameScan.FLOOD_ALLOWANCE)
                .isLessThan(8 * Http2FrameScan.FLOOD_ALLOWANCE + 2 * pings.length);
    }

    @Test
    void aGoAwayNamingStreamZeroAfterStreamsWereOpenedNamesTheHighestOfThem() {
        Http2FrameScan scan = new Http2FrameScan(stream -> { });
        scan.scan(PREFACE);
        byte[] goAway = frame(GOAWAY, 0, 0, new byte[]{0, 0, 0, 0, 0, 0, 0, 1, 'x'}); // PROTOCOL_ERROR, debug data
        assertThat(bytes(scan.written(BufferData.create(goAway)))).as("no stream opened yet").isEqualTo(goAway);

        scan.scan(frame(HEADERS, END_HEADERS, 1, new byte[5]));
        scan.scan(frame(HEADERS, END_HEADERS, 0x01020305, new byte[5]));
        scan.scan(frame(HEADERS, END_HEADERS, 7, new byte[5]));
        assertThat(scan.highestStream()).isEqualTo(0x01020305);
        assertThat(bytes(scan.written(BufferData.create(goAway))))
                .isEqualTo(frame(GOAWAY, 0, 0, new byte[]{1, 2, 3, 5, 0, 0, 0, 1, 'x'}));

        byte[] named = frame(GOAWAY, 0, 0, new byte[]{0, 0, 0, 3, 0, 0, 0, 0});
        assertThat(bytes(scan.written(BufferData.create(named)))).as("a last stream already named").isEqualTo(named);
        byte[] ping = frame(PING, 0, 0, new byte[8]);
        assertThat(bytes(scan.written(BufferData.create(ping)))).isEqualTo(ping);
    }

    private static byte[] bytes(BufferData data) {
        byte[] bytes = new byte[data.available()];
        data.read(bytes);
        return bytes;
    }

    private static byte[] repeated(byte[] frame, int times) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < times; i++) {
            out.writeBytes(frame);
        }
        return out.toByteArray();
    }

    private static void continued(ByteArrayOutputStream out, int stream, int continuations) {
        out.writeBytes(frame(HEADERS, 0, stream, new byte[5]));
        for (int i = 1; i <= continuations; i++) {
            out.writeBytes(frame(CONTINUATION, i == continuations ? END_HEADERS : 0, stream, new byte[i % 3]));
        }
    }

    private static byte[] frame(int type, int flags, int stream, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[]{(byte) (payload.length >> 16), (byte) (payload.length >> 8), (byte) payload.length,
                (byte) type, (byte) flags, (byte) (stream >> 24), (byte) (stream >> 16), (byte) (stream >> 8),
                (byte) stream});
        out.writeBytes(payload);
        return out.toByteArray();
    }
}
