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
    void smallWritesLeaveAsOneWriteAtCloseWithoutAFlush() throws Exception {
        Recorder recorder = new Recorder();
        try (AggregateOutput out = new AggregateOutput(recorder, 1024)) {
            out.write("{\"pods\":[".getBytes());
            out.write('{');
            out.write("\"a\":1}".getBytes());
            assertThat(recorder.writes).isEmpty();
        }
        assertThat(recorder.writes).containsExactly(16);
        assertThat(recorder.bytes.toString()).isEqualTo("{\"pods\":[{\"a\":1}");
        assertThat(recorder.flushes).isZero();
        assertThat(recorder.closed).isTrue();
    }

    @Test
    void whatWouldPassTheLimitGoesOutAndLargeAnswersGoDirectly() throws Exception {
        Recorder recorder = new Recorder();
        AggregateOutput out = new AggregateOutput(recorder, 100);
        out.write(new byte[60]);
        out.write(new byte[60]);
        assertThat(recorder.writes).containsExactly(60);
        out.write(new byte[500]);
        assertThat(recorder.writes).containsExactly(60, 60, 500);
        out.write(new byte[10]);
        out.close();
        assertThat(recorder.writes).containsExactly(60, 60, 500, 10);
        assertThat(recorder.bytes.size()).isEqualTo(630);
    }
}
