package io.pylon.worker.proxy;

import org.apache.hc.core5.http.io.entity.AbstractHttpEntity;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The client's request body on its way to the upstream, streamed through a fixed buffer. The response timeout is
 * armed while a chunk is written to the upstream (an upstream that stops reading blocks the write) and disarmed while
 * the next chunk is read from the client, whose pace is not the upstream's fault. When reading the client's body fails,
 * the upstream connection is cut before HttpClient closes the body's stream: closing a chunked stream writes its last
 * chunk, and the upstream would take what it got for the whole body. A body not sent to its end (the upstream answered
 * early, see {@link EarlyAnswers}, or failed) is left unread: closing the client's stream would read it all first.
 */
final class UpstreamRequestBody extends AbstractHttpEntity {
    private final InputStream in;
    private final long length;
    private final ResponseTimeout timeout;

    UpstreamRequestBody(InputStream in, long length, ResponseTimeout timeout) {
        super((String) null, null);
        this.in = in;
        this.length = length;
        this.timeout = timeout;
    }

    @Override
    public long getContentLength() {
        return length;
    }

    @Override
    public InputStream getContent() {
        return in;
    }

    @Override
    public boolean isStreaming() {
        return true;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
        byte[] buffer = StreamBuffer.forLength(length);
        long remaining = length;
        try {
            while (length < 0 || remaining > 0) {
                timeout.disarm();
                int n;
                try {
                    n = in.read(buffer, 0, length < 0 ? buffer.length : (int) Math.min(buffer.length, remaining));
                } catch (IOException | RuntimeException e) {
                    timeout.cutUpstream();
                    throw e;
                }
                if (n < 0) {
                    break;
                }
                timeout.arm();
                out.write(buffer, 0, n);
                remaining -= n;
            }
            // only a body read to its end is closed here; else the rest stays unread: the answer (the upstream's early
            // one, or the gateway's error) goes out first, and the pod's connection guard drains or closes after it
            in.close();
        } finally {
            // next: the wait for the response head
            timeout.arm();
        }
    }
}
