package io.pylon.core.broadcast;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AggregateOutputTest {

    /** Records each write it gets, and whether it was flushed or closed. */
    private static final class Recorder extends OutputStream {
        final List<Integer> writes = new ArrayList<>();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int flushes;
        boolean closed;

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            writes.add(len);
            bytes.write(b, off, len);
        }

        @Override
        public void flush() {
            flushes++;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void anAggregateUnderTheLimitIsSentWholeWithoutOpeningAStream() throws Exception {
        Recorder recorder = new Recorder();
        List<byte[]> sent = new ArrayList<>();
        try (AggregateOutput out = new AggregateOutput(() -> recorder, sent::add, 1024)) {
            out.write("{\"pods\":[".getBytes());
            out.write('{');
            out.write("\"a\":1}".getBytes());
        }
        assertThat(sent).hasSize(1);
        assertThat(new String(sent.getFirst())).isEqualTo("{\"pods\":[{\"a\":1}");
        assertThat(recorder.writes).isEmpty();
        assertThat(recorder.closed).isFalse();
    }

    @Test
    void whatWouldPassTheLimitGoesOutAndLargeAnswersGoDirectly() throws Exception {
        Recorder recorder = new Recorder();
        List<byte[]> sent = new ArrayList<>();
        AggregateOutput out = new AggregateOutput(() -> recorder, sent::add, 100);
        out.write(new byte[60]);
        out.write(new byte[60]);
        assertThat(recorder.writes).containsExactly(60);
        out.write(new byte[500]);
        assertThat(recorder.writes).containsExactly(60, 60, 500);
        out.write(new byte[10]);
        out.close();
        assertThat(recorder.writes).containsExactly(60, 60, 500, 10);
        assertThat(recorder.bytes.size()).isEqualTo(630);
        assertThat(recorder.flushes).isZero();
        assertThat(recorder.closed).isTrue();
        assertThat(sent).isEmpty();
    }

    @Test
    void anAbortSendsNothingWhenNothingWentOutAndEndsTheStreamOtherwise() throws Exception {
        Recorder untouched = new Recorder();
        List<byte[]> sent = new ArrayList<>();
        AggregateOutput quiet = new AggregateOutput(() -> untouched, sent::add, 100);
        quiet.write(new byte[10]);
        quiet.abort();
        quiet.close();
        assertThat(sent).isEmpty();
        assertThat(untouched.writes).isEmpty();

        Recorder streamed = new Recorder();
        AggregateOutput busy = new AggregateOutput(() -> streamed, sent::add, 100);
        busy.write(new byte[200]);
        busy.write(new byte[10]);
        busy.abort();
        assertThat(streamed.writes).containsExactly(200);
        assertThat(streamed.closed).isTrue();
        assertThat(sent).isEmpty();
    }
}
