package io.pylon.worker.proxy;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.RefusedRequest;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The gateway's access log: a JSON line for each proxied request once its exchange is over, on the pod's standard
 * output beside its log lines, which are text (a collector tells them apart by the leading brace): what a container's
 * log collector reads. Both write through {@code System.out}, whose lock keeps every line whole. A line says when the request
 * was routed (UTC), the client's address as the gateway saw it, the method, the path without its query (a query may
 * hold a key or a token), the protocol, the Host, the status (499 when the client left before an answer, as nginx
 * says), the bytes sent (status line, headers and body), the milliseconds until the exchange ended and the request's
 * {@link RequestId} (the {@code X-Request-Id} the client got, null when it got none). A request the pod refused
 * before routing (a malformed request line, 414, 431: {@link GatewayRefusals}) has a line too, with what of it was
 * read. A WebSocket handshake taken before routing is not in it.
 *
 * <p>A request thread never waits for the output: lines go through a bounded queue ({@value #CAPACITY} lines) that one
 * daemon thread writes out every {@value #WRITE_EVERY_MS} ms; while it is full (the output stalled), a line is dropped
 * and counted ({@link #dropped}). The lines not yet written are bounded in characters too ({@value #MAX_PENDING_CHARS}):
 * a path may be as long as the request line allows and grows sixfold as JSON escapes its control characters, so lines
 * as a client can make them would otherwise let a stalled output hold hundreds of megabytes.
 *
 * <p>Threading: request threads build their line and offer it to the queue concurrently; only the writer thread
 * writes to the stream; {@link #close} may be called from any thread, once.
 */
public final class AccessLog implements AutoCloseable {
    static final int CAPACITY = 8192;
    static final long MAX_PENDING_CHARS = 4L << 20;
    private static final System.Logger LOG = System.getLogger(AccessLog.class.getName());
    private static final JsonStringEncoder ESCAPE = JsonStringEncoder.getInstance();
    private static final long WRITE_EVERY_MS = 50;
    private static final int CLIENT_CLOSED = 499;

    private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(CAPACITY);
    private final LongAdder dropped = new LongAdder();
    // characters of the lines offered and not yet written (queued, or in the writer's batch)
    private final AtomicLong pendingChars = new AtomicLong();
    private final OutputStream out;
    private final Thread writer;
    private volatile boolean closed;

    /** @param out where the lines go ({@code System.out}); written by the log's own thread only */
    public AccessLog(OutputStream out) {
        this.out = out;
        this.writer = Thread.ofPlatform().daemon().name("pylon-access-log").start(this::writeLines);
    }

    /** {@code handler}, its every exchange logged. */
    public Handler around(Handler handler) {
        return (req, res) -> {
            long start = System.nanoTime();
            Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            boolean failed = true;
            try {
                handler.handle(req, res);
                failed = false;
            } finally {
                // sent: what the client got, even when the handler failed after (a client gone mid-body)
                int status = res.isSent() ? res.status().code() : failed ? 500 : CLIENT_CLOSED;
                offer(line(req, at, status, res.isSent() ? res.bytesWritten() : 0, System.nanoTime() - start,
                        res.headers().first(RequestId.NAME).orElse(null)));
            }
        };
    }

    /** Lines dropped because the output did not keep up. */
    public long dropped() {
        return dropped.sum();
    }

    void offer(String line) {
        if (closed || pendingChars.addAndGet(line.length()) > MAX_PENDING_CHARS || !lines.offer(line)) {
            pendingChars.addAndGet(-line.length());
            dropped.increment();
        }
    }

    /** @param requestId the request's {@link RequestId}; null when the gateway gives none */
    static String line(ServerRequest req, Instant at, int status, long bytes, long nanos, @Nullable String requestId) {
        return line(at, ClientAddress.ip(req.remotePeer()), req.prologue().method().text(), req.path().rawPath(),
                "HTTP/" + req.prologue().protocolVersion(), req.headers().first(HeaderNames.HOST).orElse(null), status,
                bytes, nanos, requestId);
    }

    /**
     * A request the pod refused before any route took it: what of it was read (null where nothing was), and
     * {@code "ms":null}, since its reading began before anything could time it.
     */
    static String line(RefusedRequest refused) {
        return line(refused.at(), refused.client(), refused.method(), refused.path(), refused.protocol(),
                refused.host(), refused.status(), refused.bytes(), -1, refused.requestId());
    }

    /** The line's fields in their order; {@code nanos} below 0 is written as null. */
    private static String line(Instant at, @Nullable String client, @Nullable String method, @Nullable String path,
                               @Nullable String protocol, @Nullable String host, int status, long bytes, long nanos,
                               @Nullable String requestId) {
        StringBuilder line = new StringBuilder(224);
        line.append("{\"time\":\"").append(at).append('"');
        field(line, "client", client);
        field(line, "method", method);
        field(line, "path", path);
        field(line, "protocol", protocol);
        field(line, "host", host);
        line.append(",\"status\":").append(status).append(",\"bytes\":").append(bytes).append(",\"ms\":");
        if (nanos < 0) {
            line.append("null");
        } else {
            line.append(Math.round(nanos / 10_000.0) / 100.0);
        }
        field(line, "requestId", requestId);
        return line.append('}').toString();
    }

    /** Writes {@code ,"name":"value"}, the value escaped as JSON wants it, or {@code ,"name":null}. */
    private static void field(StringBuilder line, String name, @Nullable String value) {
        line.append(",\"").append(name).append("\":");
        if (value == null) {
            line.append("null");
        } else {
            line.append('"');
            ESCAPE.quoteAsString(value, line);
            line.append('"');
        }
    }

    // Woken by time, not by each line: a wake-up and a write a request would cost more than the rest of its line.
    private void writeLines() {
        List<String> batch = new ArrayList<>(1024);
        try {
            while (true) {
                if (lines.drainTo(batch, 4096) == 0) {
                    if (closed) {
                        return;
                    }
                    Thread.sleep(WRITE_EVERY_MS);
                    continue;
                }
                StringBuilder chunk = new StringBuilder(batch.size() * 200);
                for (String line : batch) {
                    chunk.append(line).append('\n');
                }
                out.write(chunk.toString().getBytes(StandardCharsets.UTF_8));
                out.flush();
                pendingChars.addAndGet(-(chunk.length() - batch.size()));
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "The access log cannot be written (" + e.getClass().getSimpleName()
                    + "); its further lines are dropped and counted");
            closed = true;
        }
    }

    /** Stops taking lines; what is queued is written within two seconds. */
    @Override
    public void close() {
        closed = true;
        try {
            writer.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
