package io.pylon.worker.proxy;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.impl.BasicEntityDetails;
import org.apache.hc.core5.http.io.entity.BasicHttpEntity;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;
import org.apache.hc.core5.http.nio.AsyncClientExchangeHandler;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.nio.DataStreamChannel;
import org.apache.hc.core5.http.nio.RequestChannel;
import org.apache.hc.core5.http.nio.support.classic.ContentInputStream;
import org.apache.hc.core5.http.nio.support.classic.ContentOutputStream;
import org.apache.hc.core5.http.nio.support.classic.SharedInputBuffer;
import org.apache.hc.core5.http.nio.support.classic.SharedOutputBuffer;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.http2.H2Error;
import org.apache.hc.core5.http2.H2StreamResetException;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.io.ModalCloseable;
import org.jspecify.annotations.Nullable;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One request and its response on a stream of an HTTP/2 upstream connection ({@link Http2Upstream}). The requester's
 * I/O thread drives the {@link AsyncClientExchangeHandler} side; the request's own thread waits for the response head
 * ({@link #awaitHead}) and reads the body from a buffer that the stream's flow-control window bounds. The client's
 * request body is copied into the stream by a virtual thread of its own, so that both directions flow at once, as
 * gRPC's streaming calls need. Closing it ({@link ResponseTimeout}, a client that left, an aborted relay) resets the
 * stream alone; the connection serves the other streams on.
 *
 * <p>Threading: the I/O thread, the request thread, the body's copier and the response-timeout sweep all touch it.
 * The two buffers are HttpCore's shared buffers (a lock each); the response head is a future; the trailers, the
 * channel, the execution handle and the flags are volatile; starting the copier and ending the stream are
 * compare-and-set, so each happens once.
 */
final class Http2Stream implements AsyncClientExchangeHandler, UpstreamExchange.Carrier, ModalCloseable {
    // the answer's buffer is the stream's receive window: HttpCore grants the upstream what the buffer can take
    private static final int RESPONSE_BUFFER = 8 * 1024;
    private static final int REQUEST_BUFFER = 16 * 1024;

    private final ClassicHttpRequest request;
    private final @Nullable HttpEntity body;
    private final Runnable onEnd;
    private final ThreadFactory copiers;
    private final @Nullable SharedOutputBuffer requestData;
    private final SharedInputBuffer responseData = new SharedInputBuffer(RESPONSE_BUFFER);
    private final CompletableFuture<ClassicHttpResponse> head = new CompletableFuture<>();
    private final AtomicBoolean copying = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile @Nullable Cancellable execution;
    private volatile @Nullable DataStreamChannel channel;
    private volatile boolean closed;
    private volatile boolean requestSent;
    private volatile boolean opened;
    private volatile List<Header> trailers = List.of();

    /**
     * @param onEnd   run once when the stream is over, however it ended (frees its place among the connection's)
     * @param copiers makes the thread that copies the request body
     */
    Http2Stream(ClassicHttpRequest request, Runnable onEnd, ThreadFactory copiers) {
        this.request = request;
        this.body = request.getEntity();
        this.requestData = body == null ? null : new SharedOutputBuffer(REQUEST_BUFFER);
        this.onEnd = onEnd;
        this.copiers = copiers;
        this.requestSent = body == null;
    }

    /** The handle that cancels the stream; a stream closed before it was known is cancelled now. */
    void started(Cancellable execution) {
        this.execution = execution;
        if (closed) {
            execution.cancel();
        }
    }

    /**
     * Waits for the response head. A failure to connect comes out as what the HTTP/1.1 transport throws for it (the
     * dispatch fails over on it); a stream the upstream refused, or a connection that closed, before any of the
     * answer, as {@link UpstreamExchange.ReusedConnectionFailedException} (tried once more).
     */
    ClassicHttpResponse awaitHead() throws IOException {
        try {
            return head.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close(CloseMode.IMMEDIATE);
            throw new InterruptedIOException("interrupted while waiting for the upstream's answer");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SocketTimeoutException && !opened) {
                throw new ConnectTimeoutException("the upstream did not accept the connection in time");
            }
            if (!closed && (cause instanceof ConnectionClosedException
                    || (cause instanceof H2StreamResetException reset
                    && reset.getCode() == H2Error.REFUSED_STREAM.getCode()))) {
                throw new UpstreamExchange.ReusedConnectionFailedException((Exception) cause);
            }
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof HttpException) {
                throw new IOException("the upstream broke the HTTP/2 protocol: " + cause.getMessage(), cause);
            }
            throw new IOException("the HTTP/2 exchange failed", cause);
        }
    }

    // --- the I/O thread's side

    @Override
    public void produceRequest(RequestChannel channel, HttpContext context) throws HttpException, IOException {
        EntityDetails details = body == null ? null : new BasicEntityDetails(body.getContentLength(), null);
        channel.sendRequest(request, details, context);
    }

    @Override
    public int available() {
        SharedOutputBuffer data = requestData;
        return data == null ? 0 : data.length();
    }

    @Override
    public void produce(DataStreamChannel channel) throws IOException {
        opened = true;
        this.channel = channel;
        SharedOutputBuffer data = requestData;
        if (data == null) {
            return; // HttpCore asks for a body only when the request has one
        }
        if (copying.compareAndSet(false, true)) {
            copiers.newThread(() -> copyBody(data)).start();
        }
        data.flush(channel);
    }

    private void copyBody(SharedOutputBuffer data) {
        HttpEntity entity = body;
        if (entity == null) {
            return;
        }
        try {
            entity.writeTo(new Flushing(new ContentOutputStream(data)));
            data.writeCompleted();
            requestSent = true;
        } catch (IOException | RuntimeException e) {
            // a body cut short must not reach the upstream as a whole one: the stream is reset
            fail(e);
            cancelExecution();
        }
    }

    /**
     * Asks the I/O thread to send after each write: the shared buffer keeps small writes until it fills, and a message
     * of a streaming call must not wait for the next one.
     */
    private final class Flushing extends FilterOutputStream {
        Flushing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            DataStreamChannel writable = channel;
            if (writable != null) {
                writable.requestOutput();
            }
        }
    }

    @Override
    public void consumeInformation(HttpResponse response, HttpContext context) {
        // 1xx answers are the upstream's business with this hop (the client got its own 100 Continue, if any)
    }

    @Override
    public void consumeResponse(HttpResponse response, @Nullable EntityDetails entity, HttpContext context) {
        opened = true;
        BasicClassicHttpResponse classic = new BasicClassicHttpResponse(response.getCode(), response.getReasonPhrase());
        classic.setHeaders(response.getHeaders());
        if (entity != null) {
            classic.setEntity(new BasicHttpEntity(new ContentInputStream(responseData), entity.getContentLength(), null));
        }
        head.complete(classic);
    }

    @Override
    public void updateCapacity(CapacityChannel capacityChannel) throws IOException {
        opened = true;
        responseData.updateCapacity(capacityChannel);
    }

    @Override
    public void consume(ByteBuffer src) {
        responseData.fill(src);
    }

    @Override
    public void streamEnd(@Nullable List<? extends Header> trailers) {
        if (trailers != null && !trailers.isEmpty()) {
            this.trailers = List.copyOf(trailers);
        }
        responseData.markEndStream();
        end();
    }

    @Override
    public void cancel() {
        fail(new InterruptedIOException("the HTTP/2 stream was cancelled"));
    }

    @Override
    public void failed(Exception cause) {
        fail(cause);
    }

    @Override
    public void releaseResources() {
        end();
    }

    private void fail(Exception cause) {
        head.completeExceptionally(cause);
        responseData.abort();
        SharedOutputBuffer data = requestData;
        if (data != null) {
            data.abort();
        }
        end();
    }

    private void end() {
        if (ended.compareAndSet(false, true)) {
            onEnd.run();
        }
    }

    // --- the exchange's side

    @Override
    public void release() {
        if (!requestSent) {
            close(CloseMode.IMMEDIATE); // the upstream answered before taking the whole body: nobody sends the rest
        }
    }

    @Override
    public void discard() {
        close(CloseMode.IMMEDIATE);
    }

    @Override
    public List<Header> trailers() {
        return trailers;
    }

    /** Resets the stream (when it is still open) and fails whoever waits on it. */
    @Override
    public void close(CloseMode mode) {
        closed = true;
        cancelExecution();
        fail(new InterruptedIOException("the HTTP/2 exchange was stopped"));
    }

    @Override
    public void close() {
        close(CloseMode.IMMEDIATE);
    }

    private void cancelExecution() {
        Cancellable handle = execution;
        if (handle != null) {
            handle.cancel();
        }
    }
}
