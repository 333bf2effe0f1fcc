package io.pylon.worker.proxy;

import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.pylon.core.http.ReadBudget;
import io.pylon.core.http.RequestBodyTimeoutException;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;

/**
 * The client's request body on its way upstream, remembering whether reading started (after that, trying another
 * upstream would send a partial body), whether it was the client's side that failed (then nobody is left to answer)
 * whether the client stopped sending (then it is answered 408), whether its chunked framing was malformed (400) and
 * whether a chunk outgrew what the gateway holds (413).
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
    private volatile boolean malformed;
    private volatile boolean chunkTooLarge;

    /**
     * The largest chunk of a chunked body the gateway takes: Helidon 4.5 holds each chunk whole (and a chunk's size line
     * however long), so each read of the body may pull at most this much, with room for its lines, from the connection
     * ({@link ReadBudget}).
     */
    static final int MAX_CHUNK = 8 << 20;
    private static final int LINES = 64 * 1024;

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

    /**
     * Whether the server could not parse the body's chunked framing (Helidon 4.5 also refuses chunk extensions and
     * trailer fields): the client is answered 400.
     */
    boolean malformed() {
        return malformed;
    }

    /** Whether a chunk of the body, or a line of its framing, outgrew {@link #MAX_CHUNK}: the client is answered 413. */
    boolean chunkTooLarge() {
        return chunkTooLarge;
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
        ReadBudget.begin((long) MAX_CHUNK + LINES + len);
        try {
            n = in.read(b, off, len);
        } catch (ReadBudget.ExceededException e) {
            chunkTooLarge = true;
            throw new IOException("a chunk of the client's request body is larger than " + MAX_CHUNK + " bytes");
        } catch (RequestBodyTimeoutException e) {
            timedOut = true;
            throw e;
        } catch (IOException e) {
            clientFailed = true;
            throw e;
        } catch (RequestException | NumberFormatException e) {
            // Helidon 4.5 parses a chunk's size with Integer.parseUnsignedInt and lets its exception through
            if (e instanceof RequestException r && r.status().code() == Status.REQUEST_ENTITY_TOO_LARGE_413.code()) {
                tooLarge = true;
            } else {
                malformed = true;
            }
            throw new IOException("the client's request body is malformed: " + e.getClass().getSimpleName());
        } catch (RuntimeException e) {
            clientFailed = true;
            throw new InterruptedIOException("client request body failed: " + e.getClass().getSimpleName());
        } finally {
            ReadBudget.end();
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
        if (malformed || chunkTooLarge) {
            return; // closing reads the body on to its end, which a malformed one lacks (Helidon 4.5 would wait for it)
        }
        in.close();
    }
}
