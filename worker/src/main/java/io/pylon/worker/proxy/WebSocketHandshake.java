package io.pylon.worker.proxy;

import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.Status;
import io.pylon.gateway.model.Route;
import io.pylon.gateway.model.Upstream;
import io.pylon.worker.routes.RouteTable;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.impl.io.ChunkedInputStream;
import org.apache.hc.core5.http.impl.io.ContentLengthInputStream;
import org.apache.hc.core5.http.impl.io.DefaultHttpResponseParser;
import org.apache.hc.core5.http.impl.io.IdentityInputStream;
import org.apache.hc.core5.http.impl.io.SessionInputBufferImpl;
import org.apache.hc.core5.util.Timeout;

import org.jspecify.annotations.Nullable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The upstream side of a WebSocket upgrade: a connection of its own (tunnels are long-lived and never return to a
 * pool), the client's request with the usual outbound headers ({@link OutboundRequest}) plus {@code Upgrade} and
 * {@code Connection: Upgrade}, and the upstream's answer read with HttpCore's parser. Upstreams are tried from the
 * route's round-robin cursor; one that refuses or does not accept in the route's connect timeout is skipped (nothing
 * was sent). The answer must come within the route's response timeout. The connection is a socket channel's (in
 * blocking mode for the handshake), so that a plain one can be relayed by a selector afterwards. Stateless.
 */
final class WebSocketHandshake {
    /** Largest refusal body relayed; a larger one is answered 502. */
    static final int MAX_REFUSAL_BODY = 64 * 1024;

    private WebSocketHandshake() {
    }

    sealed interface Result permits Switched, Refused {
    }

    /** The upstream switched: {@code head} goes to the client, then the tunnel runs. */
    record Switched(Socket socket, byte[] head, byte[] leftover) implements Result {
    }

    /** The upstream answered without switching: {@code response} is that answer for the client, framed whole. */
    record Refused(byte[] response) implements Result {
    }

    /**
     * @param path        the normalised path ({@link RequestPath}): what the route matched and the upstream receives
     * @param hop         the client's side of the hop; a client's forwarding headers are replaced, never kept
     * @param tls         the route's upstream TLS context; null: the JDK's default, verified
     * @param application the application whose key admitted the request; null: none
     */
    static Result open(RouteTable.Entry entry, String path, HttpPrologue prologue, Headers headers,
                       OutboundRequest.Hop hop, @Nullable UpstreamTlsContext tls, @Nullable String application)
            throws IOException {
        Route route = entry.route();
        List<Upstream> upstreams = route.upstreams();
        int start = Math.floorMod(entry.cursor().getAndIncrement(), upstreams.size());
        IOException last = null;
        for (int i = 0; i < upstreams.size(); i++) {
            Upstream upstream = upstreams.get((start + i) % upstreams.size());
            Socket socket;
            try {
                socket = connect(upstream, (int) route.connectTimeout().toMillis(), tls);
            } catch (ConnectException | SocketTimeoutException e) {
                last = e;
                continue;
            }
            try {
                return exchange(socket, route, upstream, path, prologue, headers, hop, application);
            } catch (IOException | HttpException | RuntimeException e) {
                socket.close();
                throw e instanceof IOException io ? io : new IOException(e.getClass().getSimpleName());
            }
        }
        throw last;
    }

    private static Socket connect(Upstream upstream, int timeoutMillis, @Nullable UpstreamTlsContext tlsContext)
            throws IOException {
        // a channel's socket: a plain tunnel hands the channel to the selector relay (WebSocketRelay)
        Socket socket = SocketChannel.open().socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(UpstreamDns.INSTANCE.address(upstream.host(), upstream.port(),
                    Timeout.ofMilliseconds(timeoutMillis)), timeoutMillis);
            if (!upstream.scheme().equals("https")) {
                return socket;
            }
            socket.setSoTimeout(timeoutMillis);
            return tlsContext != null ? tlsContext.handshake(socket, upstream.host(), upstream.port(), "http/1.1")
                    : UpstreamTlsContext.handshakeDefault(socket, upstream.host(), upstream.port(), "http/1.1");
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    private static Result exchange(Socket socket, Route route, Upstream upstream, String path, HttpPrologue prologue,
                                   Headers headers, OutboundRequest.Hop hop, @Nullable String application)
            throws IOException, HttpException {
        String target = OutboundRequest.target(route.upstreamPath(upstream, path), prologue.query().rawValue());
        HttpHost host = new HttpHost(upstream.scheme(), upstream.host(), upstream.port());
        ClassicHttpRequest outbound = OutboundRequest.create("GET", host, target, headers, hop,
                HeaderTransforms.keyHeader(route.policies()));
        HeaderTransforms.request(route.policies(), application, outbound);
        StringBuilder request = new StringBuilder(512).append("GET ").append(target).append(" HTTP/1.1\r\nHost: ")
                .append(host.toHostString()).append("\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n");
        for (Header header : outbound.getHeaders()) {
            request.append(header.getName()).append(": ").append(header.getValue()).append("\r\n");
        }
        request.append("\r\n");
        OutputStream out = socket.getOutputStream();
        out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.flush();

        socket.setSoTimeout((int) Math.max(1, route.responseTimeout().toMillis()));
        InputStream in = socket.getInputStream();
        SessionInputBufferImpl buffer = new SessionInputBufferImpl(8 * 1024, UpstreamConnections.MAX_LINE);
        DefaultHttpResponseParser parser = new DefaultHttpResponseParser(UpstreamConnections.HEAD_BOUNDS);
        ClassicHttpResponse response = parser.parse(buffer, in);
        while (response != null && response.getCode() < 200 && response.getCode() != 101) {
            response = parser.parse(buffer, in); // 100 Continue and other interim answers
        }
        if (response == null) {
            throw new IOException("The upstream closed the connection without answering");
        }
        UpstreamHead.check(response); // its fields are written to the client as they are: no CR or NUL in them
        if (response.getCode() == 101 && upgradesToWebSocket(response)) {
            socket.setSoTimeout(0);
            byte[] leftover = new byte[buffer.length()];
            int read = 0;
            while (read < leftover.length) {
                read += buffer.read(leftover, read, leftover.length - read, in);
            }
            return new Switched(socket, head(response, "Upgrade: websocket\r\nConnection: Upgrade\r\n", -1,
                    hop.requestId()), leftover);
        }
        byte[] body = body(response, buffer, in);
        socket.close();
        ByteArrayOutputStream whole = new ByteArrayOutputStream(512 + body.length);
        whole.writeBytes(head(response, "Connection: close\r\n", body.length, hop.requestId()));
        whole.writeBytes(body);
        return new Refused(whole.toByteArray());
    }

    private static boolean upgradesToWebSocket(ClassicHttpResponse response) {
        Header upgrade = response.getFirstHeader("Upgrade");
        return upgrade != null && upgrade.getValue().trim().equalsIgnoreCase("websocket");
    }

    /**
     * Status line and the end-to-end headers, then {@code own}, the request's identifier (which replaces the
     * upstream's) unless null, and, unless negative, the body's length.
     */
    private static byte[] head(ClassicHttpResponse response, String own, long length, @Nullable String requestId) {
        List<String> connection = new ArrayList<>();
        for (Header header : response.getHeaders("Connection")) {
            connection.add(header.getValue());
        }
        HopByHopHeaders hop = HopByHopHeaders.of(connection);
        String reason = UpstreamHead.reasonPhrase(response);
        StringBuilder head = new StringBuilder(512).append("HTTP/1.1 ").append(response.getCode()).append(' ')
                .append(reason == null ? Status.create(response.getCode()).reasonPhrase() : reason).append("\r\n");
        for (Header header : response.getHeaders()) {
            String name = header.getName().toLowerCase(Locale.ROOT);
            if (hop.isHopByHop(name) || name.equals("content-length")
                    || (requestId != null && name.equals("x-request-id"))) {
                continue;
            }
            head.append(header.getName()).append(": ").append(header.getValue()).append("\r\n");
        }
        head.append(own);
        if (requestId != null) {
            head.append("X-Request-Id: ").append(requestId).append("\r\n");
        }
        if (length >= 0) {
            head.append("Content-Length: ").append(length).append("\r\n");
        }
        return head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] body(ClassicHttpResponse response, SessionInputBufferImpl buffer, InputStream in)
            throws IOException {
        int code = response.getCode();
        if (code == 204 || code == 304 || code == 101) {
            return new byte[0];
        }
        Header encoding = response.getFirstHeader("Transfer-Encoding");
        Header length = response.getFirstHeader("Content-Length");
        InputStream body;
        if (encoding != null && encoding.getValue().toLowerCase(Locale.ROOT).contains("chunked")) {
            body = new ChunkedInputStream(buffer, in);
        } else if (length != null) {
            long declared;
            try {
                declared = Long.parseLong(length.getValue().trim());
            } catch (NumberFormatException e) {
                throw new IOException("The upstream sent an invalid Content-Length");
            }
            if (declared > MAX_REFUSAL_BODY) {
                throw new IOException("The upstream's refusal is larger than " + MAX_REFUSAL_BODY + " bytes");
            }
            body = new ContentLengthInputStream(buffer, in, declared);
        } else {
            body = new IdentityInputStream(buffer, in);
        }
        byte[] bytes = body.readNBytes(MAX_REFUSAL_BODY + 1);
        if (bytes.length > MAX_REFUSAL_BODY) {
            throw new IOException("The upstream's refusal is larger than " + MAX_REFUSAL_BODY + " bytes");
        }
        return bytes;
    }
}
