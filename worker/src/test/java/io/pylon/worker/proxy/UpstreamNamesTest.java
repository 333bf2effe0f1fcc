package io.pylon.worker.proxy;

import io.helidon.webserver.WebServer;
import io.pylon.core.testing.TestNames;
import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.LogCapture;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
 * in this JVM, no DNS traffic), on a real Worker. A name not found is skipped for the next upstream like a refused
 * connection (it was a 502 with the other upstream up); a lookup that does not answer ends at the route's connect
 * timeout, and requests waiting on one name share one lookup (before, each waited the system resolver's whole retry
 * cycle, past the connect timeout, with a lookup of its own). The same over HTTP/2 to the upstream ({@code green}, a
 * Helidon h2c server), where a lookup without answer held every request to the origin for a minute.
 */
class UpstreamNamesTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static TestUpstream blue;
    private static WebServer green;
    private static Gateway gateway;

    @BeforeAll
    static void start() {
        blue = TestUpstream.echo("blue");
        green = WebServer.builder().host("127.0.0.1").port(0)
                .routing(r -> r.get("/*", (req, res) -> res.send("green " + req.prologue().protocolVersion() + " "
                        + req.path().path())))
                .build().start();
        gateway = Gateway.start("""
                routes:
                  - {name: gone, pathPrefix: /gone, upstreams: [http://nx-gone.pylon-test:80, %1$s]}
                  - {name: hung, pathPrefix: /hung, connectTimeout: 1s, upstreams: [http://hung-one.pylon-test:80, %1$s]}
                  - {name: only-hung, pathPrefix: /only-hung, connectTimeout: 1s, upstreams: [http://hung-two.pylon-test:80]}
                  - {name: only-gone, pathPrefix: /only-gone, upstreams: [http://nx-only.pylon-test:80]}
                  - {name: named, pathPrefix: /named, upstreams: ["http://lo-blue.pylon-test:%2$d"]}
                  - {name: gone-h2, pathPrefix: /h2/gone, upstreamProtocol: HTTP/2,
                     upstreams: [http://nx-gone-h2.pylon-test:80, "http://127.0.0.1:%3$d"]}
                  - {name: hung-h2, pathPrefix: /h2/hung, upstreamProtocol: HTTP/2, connectTimeout: 1s,
                     upstreams: [http://hung-h2.pylon-test:80, "http://127.0.0.1:%3$d"]}
                  - {name: only-hung-h2, pathPrefix: /h2/only-hung, upstreamProtocol: HTTP/2, connectTimeout: 1s,
                     upstreams: [http://hung-only-h2.pylon-test:80]}
                  - {name: named-h2, pathPrefix: /h2/named, upstreamProtocol: HTTP/2,
                     upstreams: ["http://lo-green.pylon-test:%3$d"]}
                """.formatted(blue.url(), blue.port(), green.port()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        blue.close();
        green.stop();
    }

    private static HttpResponse<String> get(String path) {
        return TestPods.send(HttpRequest.newBuilder(URI.create(gateway.url(path))).timeout(Duration.ofSeconds(60)).build());
    }

    /** ... and the log says why the upstream was skipped, as nginx's "connect() failed (111: Connection refused)". */
    @Test
    void aNameThatIsNotFoundFailsOverToTheNextUpstream() {
        try (LogCapture log = LogCapture.open(Level.WARNING)) {
            for (int i = 0; i < 6; i++) {
                HttpResponse<String> response = get("/gone/" + i);
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                assertThat(response.body()).isEqualTo("blue GET /gone/" + i);
            }
            assertThat(log.lines()).anyMatch(line -> line.contains("Upstream http://nx-gone.pylon-test:80 failed "
                    + "(UnknownHostException: nx-gone.pylon-test: not found); skipped by round robin"));
        }
        HttpResponse<String> alone = get("/only-gone/x");
        assertThat(alone.statusCode()).isEqualTo(502);
        assertThat(alone.body()).contains("\"error\"");
    }

    @Test
    void aLookupWithoutAnswerEndsAtTheConnectTimeoutAndFailsOver() {
        long start = System.nanoTime();
        HttpResponse<String> response = get("/hung/x");
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("blue GET /hung/x");
        assertThat(millis).as("ms until the answer").isBetween(900L, 5_000L);
    }

    @Test
    void requestsWaitingOnOneNameShareOneLookupAndEachEndsAtItsTimeout() {
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(CLIENT.sendAsync(HttpRequest.newBuilder(URI.create(gateway.url("/only-hung/" + i)))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            HttpResponse<String> response = call.join();
            assertThat(response.statusCode()).as(response.body()).isEqualTo(502);
        }
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms until all 20 were answered").isLessThan(10_000L);
        assertThat(TestNames.lookups("hung-two.pylon-test")).as("lookups of the name").isEqualTo(1);
    }

    @Test
    void aNameThatIsFoundIsConnectedTo() {
        HttpResponse<String> response = get("/named/x");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("blue GET /named/x");
    }

    @Test
    void overHttp2ANameThatIsNotFoundFailsOverToTheNextUpstream() {
        try (LogCapture log = LogCapture.open(Level.WARNING)) {
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> response = get("/h2/gone/" + i);
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                assertThat(response.body()).isEqualTo("green 2.0 /h2/gone/" + i);
            }
            assertThat(log.lines()).anyMatch(line -> line.contains("Upstream http://nx-gone-h2.pylon-test:80 failed "
                    + "(UnknownHostException: nx-gone-h2.pylon-test: not found); skipped by round robin"));
        }
    }

    @Test
    void overHttp2ALookupWithoutAnswerEndsAtTheConnectTimeoutAndFailsOver() {
        long start = System.nanoTime();
        HttpResponse<String> response = get("/h2/hung/x");
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("green 2.0 /h2/hung/x");
        assertThat(millis).as("ms until the answer").isBetween(900L, 5_000L);
    }

    /**
     * ... and requests to the same origin queued behind the lookup (HttpCore's pool looks up while it holds the
     * origin's lock) each end at their own timeout, not one timeout after another.
     */
    @Test
    void overHttp2RequestsWaitingOnOneNameEachEndAtTheirTimeout() {
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            calls.add(CLIENT.sendAsync(HttpRequest.newBuilder(URI.create(gateway.url("/h2/only-hung/" + i)))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            HttpResponse<String> response = call.join();
            assertThat(response.statusCode()).as(response.body()).isEqualTo(502);
        }
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms until all 10 were answered").isLessThan(10_000L);
        assertThat(TestNames.lookups("hung-only-h2.pylon-test")).as("lookups of the name").isEqualTo(1);
    }

    @Test
    void overHttp2ANameThatIsFoundIsConnectedTo() {
        HttpResponse<String> response = get("/h2/named/x");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("green 2.0 /h2/named/x");
    }
}
