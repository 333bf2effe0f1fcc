package io.pylon.core.http;

import io.helidon.common.buffers.DataReader;
import io.helidon.http.BadRequestException;
import org.jspecify.annotations.Nullable;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The bytes of a connection as Helidon's HTTP/1.1 parser should read them. When the first request line does not end
 * in {@code HTTP/1.0} everything passes unchanged (the line is held only until its end is seen). On an HTTP/1.0
 * connection every request head becomes the HTTP/1.1 head it means, with a {@code Host} header when it had none:
 * <ul>
 *   <li>a request asking for keep-alive ({@code Connection: keep-alive}) with no body or a {@code Content-Length} one
 *   loses that header (keep-alive is HTTP/1.1's default); its body passes, counted, and the next head is rewritten in
 *   turn, as nginx keeps such connections;</li>
 *   <li>any other request gets {@code Connection: close}, and everything after its head passes unchanged (the
 *   connection closes after its response, so nothing after it is ever parsed as a request);</li>
 *   <li>a request with {@code Transfer-Encoding} (HTTP/1.1's) is refused: the read throws Helidon's
 *   {@link BadRequestException}, which its connection answers with 400 and a close.</li>
 * </ul>
 * Each rewritten request is announced to {@link Http10Exchanges} (whether it is a {@code HEAD}), so the response
 * writer knows where each answer ends.
 *
 * <p>Used by the one connection thread that reads the connection; not thread-safe.
 */
final class Http10Request implements Supplier<byte[]> {
    private static final byte[] END_OF_HEAD = {'\r', '\n', '\r', '\n'};
    private static final byte[] LINE_END = {'\n'};
    private static final String HTTP_1_0 = " HTTP/1.0";
    /** The refusal of an HTTP/1.0 request with {@code Transfer-Encoding}, as {@link RefusalReasons} knows it. */
    static final String TRANSFER_CODED_HTTP_1_0 = "HTTP/1.0 request with Transfer-Encoding";

    private enum Mode { FIRST, HEAD, BODY, PASS }

    private final DataReader source;
    private final String host;
    private final int maxHead;
    private final Runnable onHttp10;
    private final Http10Exchanges exchanges;
    private Mode mode = Mode.FIRST;
    private long bodyLeft;
    private byte[] carry = new byte[0];

    Http10Request(DataReader source, String host, int maxHead, Runnable onHttp10, Http10Exchanges exchanges) {
        this.source = source;
        this.host = host;
        this.maxHead = maxHead;
        this.onHttp10 = onHttp10;
        this.exchanges = exchanges;
    }

    @Override
    public byte @Nullable [] get() {
        return switch (mode) {
            case PASS -> take();
            case FIRST -> first();
            case HEAD -> head();
            case BODY -> body();
        };
    }

    private byte @Nullable [] first() {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int lineEnd = -1;
        while (lineEnd < 0 && head.size() <= maxHead) {
            byte[] bytes = take();
            if (bytes == null) {
                break;
            }
            head.writeBytes(bytes);
            lineEnd = indexOf(head.toByteArray(), LINE_END);
        }
        if (lineEnd < 0 || !head.toString(StandardCharsets.ISO_8859_1).substring(0, lineEnd).strip().endsWith(HTTP_1_0)) {
            mode = Mode.PASS;
            return head.toByteArray(); // HTTP/1.1, or no request line Helidon could take: its parser decides
        }
        onHttp10.run();
        carry = head.toByteArray();
        mode = Mode.HEAD;
        return head();
    }

    /** Reads up to the end of the next request head and returns it rewritten, with what follows it in its body. */
    private byte @Nullable [] head() {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        head.writeBytes(carry);
        carry = new byte[0];
        int end = indexOf(head.toByteArray(), END_OF_HEAD);
        while (end < 0 && head.size() <= maxHead) {
            byte[] bytes = take();
            if (bytes == null) {
                break;
            }
            head.writeBytes(bytes);
            end = indexOf(head.toByteArray(), END_OF_HEAD);
        }
        if (head.size() == 0) {
            return null;
        }
        byte[] all = head.toByteArray();
        if (end < 0) {
            mode = Mode.PASS; // no head within the limit: Helidon's parser refuses it
            return all;
        }
        String text = new String(all, 0, end + 4, StandardCharsets.ISO_8859_1);
        byte[] rest = Arrays.copyOfRange(all, end + 4, all.length);
        Rewritten rewritten = rewrite(text, end);
        byte[] out = rewritten.head().getBytes(StandardCharsets.ISO_8859_1);
        if (!rewritten.keepAlive()) {
            mode = Mode.PASS;
            return concat(out, rest);
        }
        mode = Mode.BODY;
        bodyLeft = rewritten.bodyLength();
        byte[] body = bodyPart(rest);
        return concat(out, body);
    }

    /** The rest of a counted body, then the next head. */
    private byte @Nullable [] body() {
        if (bodyLeft == 0) {
            mode = Mode.HEAD;
            return head();
        }
        byte[] bytes = carry.length > 0 ? carry : take();
        carry = new byte[0];
        if (bytes == null) {
            return null;
        }
        return bodyPart(bytes);
    }

    // what of bytes belongs to the body being counted; the rest waits for the next head
    private byte[] bodyPart(byte[] bytes) {
        int n = (int) Math.min(bodyLeft, bytes.length);
        bodyLeft -= n;
        carry = Arrays.copyOfRange(bytes, n, bytes.length);
        if (bodyLeft == 0) {
            mode = Mode.HEAD;
        }
        return n == bytes.length ? bytes : Arrays.copyOf(bytes, n);
    }

    private record Rewritten(String head, boolean keepAlive, long bodyLength) {
    }

    /** {@code end}: where the blank line after the headers starts. */
    private Rewritten rewrite(String head, int end) {
        int lineEnd = head.indexOf("\r\n");
        String requestLine = head.substring(0, lineEnd);
        boolean http10 = requestLine.strip().endsWith(HTTP_1_0);
        String method = requestLine.substring(0, Math.max(0, requestLine.indexOf(' ')));
        boolean hasHost = false;
        boolean keepAlive = false;
        boolean close = false;
        boolean unframed = false;
        boolean transferCoded = false;
        long length = 0;
        StringBuilder kept = new StringBuilder(head.length() + 32);
        for (String line : head.substring(lineEnd + 2, end + 2).split("\r\n")) {
            if (line.isEmpty()) {
                continue;
            }
            int colon = line.indexOf(':');
            String name = colon < 0 ? "" : line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = colon < 0 ? "" : line.substring(colon + 1).strip().toLowerCase(Locale.ROOT);
            switch (name) {
                case "host" -> hasHost = true;
                case "connection" -> {
                    keepAlive |= hasToken(value, "keep-alive");
                    close |= hasToken(value, "close");
                    if (http10) {
                        continue; // replaced below
                    }
                }
                case "transfer-encoding" -> {
                    unframed = true;
                    transferCoded = true;
                }
                case "content-length" -> {
                    try {
                        length = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        unframed = true; // Helidon's parser refuses it; nothing after it is a request
                    }
                }
                default -> {
                }
            }
            kept.append("\r\n").append(line);
        }
        boolean persistent = http10 ? keepAlive && !close && !unframed : !close && !unframed;
        exchanges.requested(method.equals("HEAD"));
        if (!http10) {
            return new Rewritten(head, persistent, length); // an HTTP/1.1 request on the connection: as it came
        }
        if (transferCoded) {
            // RFC 9112 section 6.1: its framing is faulty (an HTTP/1.0 peer on the way may have read the body by
            // Content-Length or to the close); nginx refuses it too. Helidon answers it with 400 and closes.
            throw new BadRequestException(TRANSFER_CODED_HTTP_1_0);
        }
        String line = requestLine.substring(0, requestLine.length() - "1.0".length()) + "1.1";
        String rewritten = line + (persistent ? "" : "\r\nConnection: close") + (hasHost ? "" : "\r\nHost: " + host)
                + kept + "\r\n\r\n";
        return new Rewritten(rewritten, persistent, length);
    }

    private static boolean hasToken(String value, String token) {
        for (String part : value.split(",")) {
            if (part.strip().equals(token)) {
                return true;
            }
        }
        return false;
    }

    private byte @Nullable [] take() {
        if (carry.length > 0) {
            byte[] bytes = carry;
            carry = new byte[0];
            return bytes;
        }
        try {
            source.ensureAvailable();
            return source.readBytes(source.available());
        } catch (DataReader.InsufficientDataAvailableException e) {
            return null;
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        if (b.length == 0) {
            return a;
        }
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
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
