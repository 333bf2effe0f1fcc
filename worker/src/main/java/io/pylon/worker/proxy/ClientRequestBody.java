package io.pylon.worker.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;

/**
 * The client's request body on its way upstream, remembering whether reading started (after that, trying another
 * upstream would send a partial body) and whether it was the client's side that failed (then nobody is left to
 * answer).
 *
 * <p>Threading: read by the one thread writing the request upstream; the flags are volatile for the request thread that
 * reads them after a failure.
 */
final class ClientRequestBody extends InputStream {
    private final InputStream in;
    private volatile boolean started;
    private volatile boolean clientFailed;

    ClientRequestBody(InputStream in) {
        this.in = in;
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
        try {
            return in.read(b, off, len);
        } catch (IOException e) {
            clientFailed = true;
            throw e;
        } catch (RuntimeException e) {
            clientFailed = true;
            throw new InterruptedIOException("client request body failed: " + e.getClass().getSimpleName());
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
