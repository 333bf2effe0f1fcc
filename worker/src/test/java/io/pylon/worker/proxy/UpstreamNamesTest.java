package io.pylon.worker.proxy;

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
 * cycle, past the connect timeout, with a lookup of its own).
 */
class UpstreamNamesTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static TestUpstream blue;
    private static Gateway gateway;

    @BeforeAll
    static void start() {
        blue = TestUpstream.echo("blue");
        gateway = Gateway.start("""
                routes:
                  - {name: gone, pathPrefix: /gone, upstreams: [http://nx-gone.pylon-test:80, %1$s]}
                  - {name: hung, pathPrefix: /hung, connectTimeout: 1s, upstreams: [http://hung-one.pylon-test:80, %1$s]}
                  - {name: only-hung, pathPrefix: /only-hung, connectTimeout: 1s, upstreams: [http://hung-two.pylon-test:80]}
                  - {name: only-gone, pathPrefix: /only-gone, upstreams: [http://nx-only.pylon-test:80]}
                  - {name: named, pathPrefix: /named, upstreams: ["http://lo-blue.pylon-test:%2$d"]}
                """.formatted(blue.url(), blue.port()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        blue.close();
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
}
