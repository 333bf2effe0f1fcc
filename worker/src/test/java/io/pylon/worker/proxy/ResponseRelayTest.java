package io.pylon.worker.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.pylon.core.http.Json;
import io.pylon.gateway.model.Upstream;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.RawHttp;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relay stage on its own: a real Helidon server whose only handler opens an exchange with a raw-socket upstream
 * (which writes exactly the bytes each case needs) and relays it, called over a plain socket.
 */
class ResponseRelayTest {
    private static final ExchangeLabel LABEL = new ExchangeLabel("test", "GET", "/", null);
    private static final int LARGE = 100 * 1024;

    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    private final ResponseTimeouts timeouts = new ResponseTimeouts(timer);
    private final UpstreamPools pools = new UpstreamPools(
            new UpstreamPool.PoolSettings(10, 10, Duration.ofSeconds(2), Duration.ofSeconds(2)),
            Duration.ofSeconds(30), Duration.ofSeconds(30));
    private final ProxyStats stats = new ProxyStats();
    private final ResponseRelay relay = new ResponseRelay(stats);
    private final AtomicInteger accepted = new AtomicInteger();
    private ServerSocket upstream;
    private WebServer server;

    @BeforeEach
    void start() throws IOException {
        upstream = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread.ofVirtual().start(this::acceptUpstreamConnections);
        Upstream target = new Upstream("http", "127.0.0.1", upstream.getLocalPort(), "");
        HttpRouting.Builder routing = HttpRouting.builder().get("/*", (req, res) -> {
            UpstreamPool pool = pools.pool(target);
            UpstreamExchange exchange = pool.open(new BasicClassicHttpRequest("GET", pool.target(), req.path().rawPath()),
                    Timeout.ofSeconds(2), timeouts.create(Duration.ofSeconds(5), LABEL, ""));
            relay.relay(exchange, res);
        });
        server = WebServer.builder().host("127.0.0.1").port(0).routing(routing).build().start();
    }

    @AfterEach
    void stop() throws IOException {
        server.stop();
        upstream.close();
        pools.close();
        timer.shutdownNow();
    }

    @Test
    void statusAndEndToEndHeadersPassHopByHopOnesAndThoseConnectionNamesDoNot() throws IOException {
        RawHttp.Response response = get("/headers");

        assertThat(response.status()).isEqualTo(201);
        assertThat(response.header("X-Kept")).isEqualTo("yes");
        assertThat(response.header("X-Internal")).isNull();
        assertThat(response.header("Keep-Alive")).isNull();
        assertThat(response.header("Upgrade")).isNull();
        assertThat(response.body()).isEqualTo("created");
        // counted once the write to the client returned, which may be a moment after the client has it all
        Gateway.await("the request counted", 5000, () -> stats.describe().get("forwarded").equals(1L));
    }

    @Test
    void aBodyLargerThanTheBufferIsStreamedWholeWithItsLength() throws IOException {
        RawHttp.Response response = get("/large");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.header("Content-Length")).isEqualTo(String.valueOf(LARGE));
        assertThat(response.body()).hasSize(LARGE).matches("x+");
    }

    @Test
    void aSmallBodyTheUpstreamCutsShortIsACleanBadGateway() throws IOException {
        RawHttp.Response response = get("/short");

        assertThat(response.status()).isEqualTo(502);
        JsonNode body = Json.MAPPER.readTree(response.body());
        assertThat(body.path("error").asText()).isEqualTo("bad_gateway");
        assertThat(response.body()).doesNotContain("127.0.0.1").doesNotContain(String.valueOf(upstream.getLocalPort()));
        assertThat(stats.describe()).containsEntry("upstreamAborted", 1L).containsEntry("badGateway", 1L)
                .containsEntry("forwarded", 0L);
    }

    @Test
    void theUpstreamConnectionIsBackInThePoolWhenTheClientHasTheResponse() throws IOException {
        UpstreamPool pool = pools.pool(new Upstream("http", "127.0.0.1", upstream.getLocalPort(), ""));
        assertThat(get("/headers").status()).isEqualTo(201);
        // released once the upstream's body was read, before the client got the end of the response
        assertThat(pool.stats().getAvailable()).isEqualTo(1);
        assertThat(pool.stats().getLeased()).isZero();
        assertThat(get("/large").status()).isEqualTo(200);
        // streamed: the last bytes may leave before the relay has read the upstream's end
        Gateway.await("the connection back in the pool", 5000, () -> pool.stats().getAvailable() == 1);

        assertThat(accepted.get()).isEqualTo(1);
    }

    @Test
    void aCutShortBodyDoesNotPutTheConnectionBack() throws IOException {
        UpstreamPool pool = pools.pool(new Upstream("http", "127.0.0.1", upstream.getLocalPort(), ""));
        assertThat(get("/short").status()).isEqualTo(502);

        Gateway.await("the lease freed", 5000, () -> pool.stats().getLeased() == 0);
        assertThat(pool.stats().getAvailable()).isZero();
    }

    private RawHttp.Response get(String path) throws IOException {
        return RawHttp.exchange("127.0.0.1", server.port(),
                "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    }

    private void acceptUpstreamConnections() {
        while (!upstream.isClosed()) {
            try {
                Socket socket = upstream.accept();
                accepted.incrementAndGet();
                Thread.ofVirtual().start(() -> serve(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Keep-alive: answers requests on the connection until the client closes it or a case closes it. */
    private static void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (true) {
                String path = RawHttp.readHead(in).split(" ")[1];
                switch (path) {
                    case "/headers" -> write(out, "HTTP/1.1 201 Created\r\nConnection: X-Internal\r\nX-Internal: secret\r\n"
                            + "Keep-Alive: timeout=5\r\nUpgrade: h2c\r\nX-Kept: yes\r\nContent-Length: 7\r\n\r\ncreated");
                    case "/large" -> {
                        write(out, "HTTP/1.1 200 OK\r\nContent-Length: " + LARGE + "\r\n\r\n");
                        byte[] body = new byte[LARGE];
                        Arrays.fill(body, (byte) 'x');
                        out.write(body);
                        out.flush();
                    }
                    default -> {
                        write(out, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten..");
                        return;
                    }
                }
            }
        } catch (IOException e) {
            // the client closed the connection
        }
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }
}
