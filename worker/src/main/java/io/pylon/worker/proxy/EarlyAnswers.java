package io.pylon.worker.proxy;

import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.io.HttpClientConnection;
import org.apache.hc.core5.http.io.ResponseOutOfOrderStrategy;

import java.io.IOException;
import java.io.InputStream;

/**
 * Notices an upstream that answers while the client's body is still being sent to it (a 401, 403 or 413 to an upload,
 * say): before each {@value #CHUNK}-byte step of the body, whether the upstream has sent anything. If it has, HttpCore
 * stops sending the body and reads that answer, which goes to the client; the upstream connection is not used again.
 * Without it the answer sat unread while the body's writes blocked on an upstream that no longer read, until the
 * upstream closed, and the client got a 502 instead (nginx, driven by events, reads the answer as it comes). A TLS
 * upstream is not watched: its bytes cannot be counted without a read. Bodies smaller than one step are never checked.
 * Stateless.
 */
final class EarlyAnswers implements ResponseOutOfOrderStrategy {
    static final EarlyAnswers INSTANCE = new EarlyAnswers();
    /** How many bytes of the body go out between two looks (one system call each) at the upstream's side. */
    static final long CHUNK = 64 * 1024;

    private EarlyAnswers() {
    }

    @Override
    public boolean isEarlyResponseDetected(ClassicHttpRequest request, HttpClientConnection connection,
                                           InputStream inputStream, long totalBytesSent, long nextWriteSize)
            throws IOException {
        if (totalBytesSent / CHUNK == (totalBytesSent + nextWriteSize) / CHUNK) {
            return false;
        }
        return connection.getSSLSession() == null && inputStream.available() > 0;
    }
}
