package io.pylon.core.http;

import io.helidon.common.buffers.DataReader;
import org.jspecify.annotations.Nullable;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The bytes of a connection as Helidon's HTTP/1.1 parser should read them. When the first request line does not end
 * in {@code HTTP/1.0} everything passes unchanged (the line is held only until its end is seen). For HTTP/1.0 the
 * first request's line says {@code HTTP/1.1}, a {@code Connection: close} header follows it, and a {@code Host}
 * header when the request had none; everything after the first request head passes unchanged (the connection closes
 * after the first response, so nothing after it is ever parsed as a request).
 *
 * <p>Used by the one connection thread that reads the connection; not thread-safe.
 */
final class Http10Request implements Supplier<byte[]> {
    private static final byte[] END_OF_HEAD = {'\r', '\n', '\r', '\n'};
    private static final byte[] LINE_END = {'\n'};
    private static final String HTTP_1_0 = " HTTP/1.0";

    private final DataReader source;
    private final String host;
    private final int maxHead;
    private final Runnable onHttp10;
    private boolean headDone;

    Http10Request(DataReader source, String host, int maxHead, Runnable onHttp10) {
        this.source = source;
        this.host = host;
        this.maxHead = maxHead;
        this.onHttp10 = onHttp10;
    }

    @Override
    public byte @Nullable [] get() {
        if (headDone) {
            return next();
        }
        headDone = true;
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int lineEnd = -1;
        while (lineEnd < 0 && head.size() <= maxHead) {
            byte[] bytes = next();
            if (bytes == null) {
                break;
            }
            head.writeBytes(bytes);
            lineEnd = indexOf(head.toByteArray(), LINE_END);
        }
        if (lineEnd < 0 || !head.toString(StandardCharsets.ISO_8859_1).substring(0, lineEnd).strip().endsWith(HTTP_1_0)) {
            return head.toByteArray(); // HTTP/1.1, or no request line Helidon could take: its parser decides
        }
        int end = indexOf(head.toByteArray(), END_OF_HEAD);
        while (end < 0 && head.size() <= maxHead) {
            byte[] bytes = next();
            if (bytes == null) {
                break;
            }
            head.writeBytes(bytes);
            end = indexOf(head.toByteArray(), END_OF_HEAD);
        }
        onHttp10.run();
        return rewrite(head.toString(StandardCharsets.ISO_8859_1), end).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** {@code end}: where the blank line after the headers starts, or -1 when it was not found within the limit. */
    private String rewrite(String head, int end) {
        int lineEnd = head.indexOf("\r\n");
        if (lineEnd < 0) {
            return head;
        }
        String requestLine = head.substring(0, lineEnd);
        requestLine = requestLine.substring(0, requestLine.length() - "1.0".length()) + "1.1";
        boolean hasHost = end >= 0 && head.substring(lineEnd, end + 2).toLowerCase(Locale.ROOT).contains("\r\nhost:");
        return requestLine + "\r\nConnection: close" + (hasHost ? "" : "\r\nHost: " + host) + head.substring(lineEnd);
    }

    private byte @Nullable [] next() {
        try {
            source.ensureAvailable();
            return source.readBytes(source.available());
        } catch (DataReader.InsufficientDataAvailableException e) {
            return null;
        }
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        outer:
        for (int i = 0; i <= bytes.length - part.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (bytes[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
