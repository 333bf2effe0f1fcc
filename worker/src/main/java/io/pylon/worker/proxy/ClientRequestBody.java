package io.pylon.worker.proxy;

import io.pylon.core.http.RequestBodyTimeoutException;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;

/**
 * The client's request body on its way upstream, remembering whether reading started (after that, trying another
 * upstream would send a partial body), whether it was the client's side that failed (then nobody is left to answer)
 * and whether the client stopped sending (then it is answered 408).
 *
 * <p>Threading: read by the one thread writing the request upstream; the flags are volatile for the request thread that
 * reads them after a failure.
 */
final class ClientRequestBody extends InputStream {
    private final InputStream in;
    private final long limit;
    private long read;
    private volatile boolean started;
    private volatile boolean clientFailed;
    private volatile boolean tooLarge;
    private volatile boolean timedOut;

    /** The body grew past its limit while it streamed (a chunked body, whose length nobody announced). */
    static final class TooLargeException extends IOException {
        TooLargeException(long limit) {
            super("the request body is larger than " + limit + " bytes");
        }
    }

    /** @param limit the most bytes the client may send, 0 for no limit */
    ClientRequestBody(InputStream in, long limit) {
        this.in = in;
        this.limit = limit;
    }

    ClientRequestBody(InputStream in) {
        this(in, 0);
    }

    /** Whether the client sent more than the limit (the exchange failed for it: 413, not 502). */
    boolean tooLarge() {
        return tooLarge;
    }

    /** Whether the client stopped sending within the body timeout (an HTTP/2 stream: it is still there for a 408). */
    boolean timedOut() {
        return timedOut;
    }

    boolean started() {
        return started;
    }

    boolean clientFailed() {
        return clientFailed;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        started = true;
        int n;
        try {
            n = in.read(b, off, len);
        } catch (RequestBodyTimeoutException e) {
            timedOut = true;
            throw e;
        } catch (IOException e) {
            clientFailed = true;
            throw e;
        } catch (RuntimeException e) {
            clientFailed = true;
            throw new InterruptedIOException("client request body failed: " + e.getClass().getSimpleName());
        }
        if (n > 0 && limit > 0) {
            read += n;
            if (read > limit) {
                tooLarge = true;
                throw new TooLargeException(limit);
            }
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
