import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.impl.DefaultConnectionReuseStrategy;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.http.protocol.HttpProcessor;
import org.apache.hc.core5.http.protocol.HttpProcessorBuilder;
import org.apache.hc.core5.http.protocol.RequestContent;
import org.apache.hc.core5.http.protocol.RequestTargetHost;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.Arrays;

/**
 * A bare Helidon SE server with its defaults and no Pylon code: the floor the gateway benches measure the Worker
 * against on the same core. Arguments: the address to bind, the port, and optionally an upstream origin and
 * {@code client}.
 * <ul>
 *   <li>Without an upstream it answers on its own: {@code /ping} 4 bytes (the reference of bench/worker/stalls.sh and saturation.sh),
 *   {@code /100b} 100 bytes and {@code /1m} 1 MiB, as the benches' upstream does.</li>
 *   <li>With one it is a reverse proxy of every path with Apache HttpClient 5 classic ({@code HttpClients.createMinimal}
 *   over a pooling connection manager, 256 connections, TCP_NODELAY): the client's headers are copied but
 *   {@code Host}, {@code Connection}, {@code Content-Length}; {@code X-Forwarded-For} is added; the upstream's are
 *   copied but the hop-by-hop ones; a body of up to 16 KiB with a length is read whole and sent in one write, a
 *   larger one streamed. By default the exchange goes straight through the pool and {@code HttpRequestExecutor}
 *   (lease, send, read, release: no exec chain), the least HttpClient 5 does per request, so the floor of the stack;
 *   with {@code client}, through {@code CloseableHttpClient.executeOpen}, as an application would call it.</li>
 * </ul>
 */
public class BareHelidon {
    private static final byte[] SMALL = body(100);
    private static final byte[] LARGE = body(1024 * 1024);

    public static void main(String[] args) throws InterruptedException {
        var builder = WebServer.builder().host(args[0]).port(Integer.parseInt(args[1]));
        if (args.length > 2) {
            Proxy proxy = new Proxy(URI.create(args[2]), args.length > 3 && args[3].equals("client"));
            builder.routing(routing -> routing.any(proxy::handle));
        } else {
            builder.routing(routing -> routing
                    .get("/ping", (request, response) -> response.send("pong"))
                    .get("/100b", (request, response) -> {
                        response.header(HeaderNames.CONTENT_TYPE, "text/plain");
                        response.send(SMALL);
                    })
                    .get("/1m", (request, response) -> response.send(LARGE)));
        }
        builder.build().start();
        Thread.currentThread().join();
    }

    private static byte[] body(int length) {
        byte[] body = new byte[length];
        Arrays.fill(body, (byte) 'x');
        body[length - 1] = '\n';
        return body;
    }

    /** The HttpClient 5 proxy; called by the server's virtual threads concurrently (the client's pool is thread-safe). */
    private static final class Proxy {
        private static final HttpRequestExecutor EXECUTOR = new HttpRequestExecutor();
        private static final HttpProcessor FRAMING = HttpProcessorBuilder.create()
                .add(RequestTargetHost.INSTANCE).add(RequestContent.INSTANCE).build();
        private static final Timeout LEASE = Timeout.ofSeconds(10);

        private final HttpHost target;
        private final HttpRoute route;
        private final PoolingHttpClientConnectionManager pool;
        private final CloseableHttpClient client;

        Proxy(URI upstream, boolean viaClient) {
            this.target = new HttpHost(upstream.getScheme(), upstream.getHost(), upstream.getPort());
            this.route = new HttpRoute(target);
            this.pool = PoolingHttpClientConnectionManagerBuilder.create()
                    .setMaxConnTotal(256)
                    .setMaxConnPerRoute(256)
                    .setDefaultSocketConfig(SocketConfig.custom().setTcpNoDelay(true).build())
                    .build();
            this.client = viaClient ? HttpClients.createMinimal(pool) : null;
        }

        void handle(ServerRequest req, ServerResponse res) throws Exception {
            String query = req.query().rawValue();
            String path = req.path().rawPath();
            ClassicHttpRequest out = new BasicClassicHttpRequest(req.prologue().method().text(), target,
                    query.isEmpty() ? path : path + "?" + query);
            for (io.helidon.http.Header header : req.headers()) {
                String name = header.headerName().lowerCase();
                if (!name.equals("host") && !name.equals("connection") && !name.equals("content-length")) {
                    out.addHeader(header.name(), header.get());
                }
            }
            out.addHeader("X-Forwarded-For", req.remotePeer().host());
            if (client == null) {
                exchange(out, res);
                return;
            }
            try (ClassicHttpResponse in = client.executeOpen(target, out, null)) {
                copyHead(in, res);
                HttpEntity entity = in.getEntity();
                if (entity == null) {
                    res.send();
                    return;
                }
                try (InputStream body = entity.getContent()) {
                    relay(body, entity.getContentLength(), res);
                }
            }
        }

        /** A small body with a known length in one write, anything else streamed. */
        private static void relay(InputStream body, long length, ServerResponse res) throws Exception {
            if (length >= 0 && length <= 16384) {
                res.send(body.readAllBytes());
                return;
            }
            if (length >= 0) {
                res.headers().contentLength(length);
            }
            try (OutputStream to = res.outputStream()) {
                body.transferTo(to);
            }
        }

        /** Lease, send, read the head, relay, and release when the body was read to its end (else close). */
        private void exchange(ClassicHttpRequest out, ServerResponse res) throws Exception {
            ConnectionEndpoint endpoint = pool.lease("bare", route, LEASE, null).get(LEASE);
            boolean reusable = false;
            try {
                HttpClientContext context = HttpClientContext.create();
                if (!endpoint.isConnected()) {
                    pool.connect(endpoint, null, context);
                }
                FRAMING.process(out, null, context);
                ClassicHttpResponse in = endpoint.execute("bare", out, EXECUTOR, context);
                copyHead(in, res);
                HttpEntity entity = in.getEntity();
                if (entity == null) {
                    res.send();
                } else {
                    relay(entity.getContent(), entity.getContentLength(), res);
                }
                reusable = DefaultConnectionReuseStrategy.INSTANCE.keepAlive(out, in, context);
            } finally {
                if (!reusable) {
                    endpoint.close(CloseMode.IMMEDIATE);
                }
                pool.release(endpoint, null, reusable ? TimeValue.ofMinutes(1) : TimeValue.ZERO_MILLISECONDS);
            }
        }

        private static void copyHead(ClassicHttpResponse in, ServerResponse res) {
            res.status(Status.create(in.getCode()));
            for (Header header : in.getHeaders()) {
                String name = header.getName();
                if (!name.equalsIgnoreCase("connection") && !name.equalsIgnoreCase("keep-alive")
                        && !name.equalsIgnoreCase("content-length") && !name.equalsIgnoreCase("transfer-encoding")) {
                    res.header(name, header.getValue());
                }
            }
        }
    }
}
