package io.pylon.worker.proxy;

import io.helidon.webserver.WebServer;
import io.pylon.core.testing.TestNames;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.LogCapture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstreams named by host names that are not found, or whose DNS server does not answer ({@link TestNames}: answered
 * in this JVM, no DNS traffic), on a real Worker, over HTTP/1.1 and HTTP/2 to the upstream (one Helidon server speaks
 * both). A name not found is skipped for the next upstream like a refused connection (it was a 502 with the other
 * upstream up); a lookup that does not answer ends at the route's connect timeout, and requests waiting on one name
 * share one lookup (before, each waited the system resolver's whole retry cycle, past the connect timeout, with a lookup
 * of its own; over HTTP/2, HttpCore looked up while its pool held the origin's lock, and every request to the origin
 * waited a minute).
 */
class UpstreamNamesTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static WebServer upstream;
    private static Gateway gateway;

    @BeforeAll
    static void start() {
        upstream = WebServer.builder().host("127.0.0.1").port(0)
                .routing(r -> r.get("/*", (req, res) -> res.send("up " + req.prologue().protocolVersion() + " "
                        + req.path().path())))
                .build().start();
        StringBuilder routes = new StringBuilder("routes:\n");
        for (String protocol : new String[] {"HTTP/1.1", "HTTP/2"}) {
            String p = protocol.equals("HTTP/2") ? "h2" : "h1";
            routes.append("""
                      - {name: gone-%1$s, pathPrefix: /%1$s/gone, upstreamProtocol: %2$s,
                         upstreams: [http://nx-gone-%1$s.pylon-test:80, "http://127.0.0.1:%3$d"]}
                      - {name: hung-%1$s, pathPrefix: /%1$s/hung, upstreamProtocol: %2$s, connectTimeout: 1s,
                         upstreams: [http://hung-one-%1$s.pylon-test:80, "http://127.0.0.1:%3$d"]}
                      - {name: only-hung-%1$s, pathPrefix: /%1$s/only-hung, upstreamProtocol: %2$s, connectTimeout: 1s,
                         upstreams: [http://hung-two-%1$s.pylon-test:80]}
                      - {name: only-gone-%1$s, pathPrefix: /%1$s/only-gone, upstreamProtocol: %2$s,
                         upstreams: [http://nx-only-%1$s.pylon-test:80]}
                      - {name: named-%1$s, pathPrefix: /%1$s/named, upstreamProtocol: %2$s,
                         upstreams: ["http://lo-named-%1$s.pylon-test:%3$d"]}
                    """.formatted(p, protocol, upstream.port()));
        }
        gateway = Gateway.start(routes.toString());
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.stop();
    }

    private static HttpResponse<String> get(String path) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(gateway.url(path))).timeout(Duration.ofSeconds(60)).build());
    }

    private static String answer(String p, String path) {
        return "up " + (p.equals("h2") ? "2.0" : "1.1") + " " + path;
    }

    /** ... and the log says why the upstream was skipped, as nginx's "connect() failed (111: Connection refused)". */
    @ParameterizedTest
    @ValueSource(strings = {"h1", "h2"})
    void aNameThatIsNotFoundFailsOverToTheNextUpstream(String p) {
        try (LogCapture log = LogCapture.open(Level.WARNING)) {
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> response = get("/" + p + "/gone/" + i);
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                assertThat(response.body()).isEqualTo(answer(p, "/" + p + "/gone/" + i));
            }
            assertThat(log.lines()).anyMatch(line -> line.contains("Upstream http://nx-gone-" + p + ".pylon-test:80 failed "
                    + "(UnknownHostException: nx-gone-" + p + ".pylon-test: not found); skipped by round robin"));
        }
        HttpResponse<String> alone = get("/" + p + "/only-gone/x");
        assertThat(alone.statusCode()).isEqualTo(502);
        assertThat(alone.body()).contains("\"error\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {"h1", "h2"})
    void aLookupWithoutAnswerEndsAtTheConnectTimeoutAndFailsOver(String p) {
        long start = System.nanoTime();
        HttpResponse<String> response = get("/" + p + "/hung/x");
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(answer(p, "/" + p + "/hung/x"));
        assertThat(millis).as("ms until the answer").isBetween(900L, 5_000L);
    }

    /**
     * ... each at its own timeout, also when queued behind the lookup (HttpCore's HTTP/2 pool looks up while it holds
     * the origin's lock), not one timeout after another.
     */
    @ParameterizedTest
    @ValueSource(strings = {"h1", "h2"})
    void requestsWaitingOnOneNameShareOneLookupAndEachEndsAtItsTimeout(String p) {
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(CLIENT.sendAsync(HttpRequest.newBuilder(URI.create(gateway.url("/" + p + "/only-hung/" + i)))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            HttpResponse<String> response = call.join();
            assertThat(response.statusCode()).as(response.body()).isEqualTo(502);
        }
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms until all 20 were answered").isLessThan(10_000L);
        assertThat(TestNames.lookups("hung-two-" + p + ".pylon-test")).as("lookups of the name").isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"h1", "h2"})
    void aNameThatIsFoundIsConnectedTo(String p) {
        HttpResponse<String> response = get("/" + p + "/named/x");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(answer(p, "/" + p + "/named/x"));
    }
}
