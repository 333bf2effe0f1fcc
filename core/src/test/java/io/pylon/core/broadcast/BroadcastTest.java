package io.pylon.core.broadcast;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Broadcast over real Worker-like pods on loopback, found by static discovery. */
class BroadcastTest {
    private static final String AUTH = TestPods.ENVIRONMENT_ID;
    private static final Map<String, Integer> PORTS = new LinkedHashMap<>();
    private static final List<Pod> CLUSTER = new ArrayList<>();
    private final List<Pod> extraPods = new ArrayList<>();
    private final List<AutoCloseable> extras = new ArrayList<>();

    @BeforeAll
    static void startCluster() {
        for (String name : List.of("worker-c", "worker-a", "worker-b")) {
            PORTS.put(name, LoopbackPeers.freePort());
        }
        String peers = staticList(PORTS);
        for (String name : PORTS.keySet()) {
            CLUSTER.add(start(name, PORTS.get(name), peers, Map.of()));
        }
    }

    @AfterAll
    static void stopCluster() {
        CLUSTER.forEach(Pod::stop);
    }

    @AfterEach
    void stopExtras() throws Exception {
        extraPods.forEach(Pod::stop);
        for (AutoCloseable extra : extras) {
            extra.close();
        }
    }

    static Pod start(String name, int port, String staticPeers, Map<String, String> more) {
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.server.port", String.valueOf(port));
        settings.put("pylon.discovery.static", staticPeers);
        settings.putAll(more);
        return TestPods.start(new FakeModule("worker").servingDiagnostics(), name, settings);
    }

    static String staticList(Map<String, Integer> ports) {
        return ports.entrySet().stream().map(e -> e.getKey() + "=http://127.0.0.1:" + e.getValue())
                .collect(Collectors.joining(","));
    }

    private static Pod clusterPod(String name) {
        return CLUSTER.stream().filter(p -> p.identity().podName().equals(name)).findFirst().orElseThrow();
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return Json.MAPPER.readTree(response.body());
    }

    private static List<String> podNames(JsonNode body) {
        List<String> names = new ArrayList<>();
        body.path("pods").forEach(p -> names.add(p.path("podName").asText()));
        return names;
    }

    @Test
    void aBroadcastListsEveryPodSortedByNameWithASummary() throws Exception {
        HttpResponse<String> response = TestPods.get(clusterPod("worker-b"), "/platform/diagnostics/jvm", "Authorization", AUTH);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body()).startsWith("{\"pods\":[").doesNotContain("\n");
        JsonNode body = json(response);
        assertThat(podNames(body)).containsExactly("worker-a", "worker-b", "worker-c");
        for (JsonNode pod : body.path("pods")) {
            assertThat(pod.path("jvm").path("memory").path("heap").path("used").asLong()).isPositive();
            assertThat(pod.has("error")).isFalse();
        }
        assertThat(body.path("summary").path("total").asInt()).isEqualTo(3);
        assertThat(body.path("summary").path("succeeded").asInt()).isEqualTo(3);
        assertThat(body.path("summary").path("failed").asInt()).isZero();
        assertThat(body.path("responseTime").asDouble()).isPositive();
        assertThat(body.path("discovery").path("mode").asText()).isEqualTo("static");
        assertThat(body.path("discovery").has("error")).isFalse();
    }

    @Test
    void threadDumpsOfEveryPodAreAggregated() throws Exception {
        HttpResponse<String> response = TestPods.get(clusterPod("worker-a"), "/platform/diagnostics/threaddump", "Authorization", AUTH);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(podNames(body)).containsExactly("worker-a", "worker-b", "worker-c");
        body.path("pods").forEach(pod -> assertThat(pod.path("threadDump").asText()).contains("java.lang.Thread.State"));
    }

    @Test
    void aKilledPodIsListedWithAnErrorAndTheOthersStillAnswer() throws Exception {
        Map<String, Integer> ports = new LinkedHashMap<>(Map.of("k-1", LoopbackPeers.freePort(), "k-2", LoopbackPeers.freePort(),
                "k-3", LoopbackPeers.freePort()));
        String peers = staticList(ports);
        Pod first = start("k-1", ports.get("k-1"), peers, Map.of());
        extraPods.add(first);
        extraPods.add(start("k-2", ports.get("k-2"), peers, Map.of()));
        Pod killed = start("k-3", ports.get("k-3"), peers, Map.of());
        killed.stop();

        JsonNode body = json(TestPods.get(first, "/platform/diagnostics/health", "Authorization", AUTH));

        assertThat(podNames(body)).containsExactly("k-1", "k-2", "k-3");
        assertThat(body.path("pods").get(0).path("health").path("status").asText()).isEqualTo("UP");
        assertThat(body.path("pods").get(1).path("health").path("status").asText()).isEqualTo("UP");
        JsonNode dead = body.path("pods").get(2);
        assertThat(dead.path("podIp").asText()).isEqualTo("127.0.0.1");
        assertThat(dead.path("error").path("status").asInt()).isEqualTo(502);
        assertThat(dead.path("error").path("message").asText()).contains("refused");
        assertThat(body.path("summary").path("succeeded").asInt()).isEqualTo(2);
        assertThat(body.path("summary").path("failed").asInt()).isEqualTo(1);
    }

    @Test
    void aPodThatNeverAnswersIsCutAtItsTimeout() throws Exception {
        LoopbackPeers.RawServer hung = new LoopbackPeers.RawServer(null);
        extras.add(hung);
        int port = LoopbackPeers.freePort();
        String peers = "h-1=http://127.0.0.1:" + port + ",h-2=" + hung.url() + "," + staticList(Map.of("h-3", PORTS.get("worker-a")));
        Pod pod = start("h-1", port, peers, Map.of("pylon.broadcast.pod-timeout", "1s"));
        extraPods.add(pod);

        long t0 = System.nanoTime();
        HttpResponse<String> response = TestPods.get(pod, "/platform/diagnostics/jvm", "Authorization", AUTH);
        long elapsedMs = (System.nanoTime() - t0) / 1_000_000;

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(podNames(body)).containsExactly("h-1", "h-2", "worker-a");
        assertThat(body.path("pods").get(1).path("error").path("status").asInt()).isEqualTo(504);
        assertThat(body.path("pods").get(2).path("podName").asText()).isEqualTo("worker-a");
        assertThat(elapsedMs).isBetween(1000L, 1800L);
        assertThat(hung.requests()).hasSize(1);
    }

    @Test
    void aPodWithAnotherEnvironmentIdIsListedWith401() throws Exception {
        int other = LoopbackPeers.freePort();
        int port = LoopbackPeers.freePort();
        String peers = "e-1=http://127.0.0.1:" + port + ",e-2=http://127.0.0.1:" + other;
        Pod pod = start("e-1", port, peers, Map.of());
        extraPods.add(pod);
        extraPods.add(start("e-2", other, peers, Map.of("pylon.environment.id", "ffffffffffffffffffffffff")));

        JsonNode body = json(TestPods.get(pod, "/platform/diagnostics/jvm", "Authorization", AUTH));

        assertThat(podNames(body)).containsExactly("e-1", "e-2");
        assertThat(body.path("pods").get(1).path("error").path("status").asInt()).isEqualTo(401);
        assertThat(body.toString()).doesNotContain(AUTH).doesNotContain("ffffffffffffffffffffffff");
        assertThat(body.path("summary").path("failed").asInt()).isEqualTo(1);
    }

    @Test
    void peersAreAskedWithInternalTrueAndTheSameAuthorization() throws Exception {
        LoopbackPeers.RawServer peer = new LoopbackPeers.RawServer(LoopbackPeers.http200(
                "{\"podName\":\"r-2\",\"podIp\":\"127.0.0.1\",\"jvm\":{}}"));
        extras.add(peer);
        int port = LoopbackPeers.freePort();
        Pod pod = start("r-1", port, "r-1=http://127.0.0.1:" + port + ",r-2=" + peer.url(), Map.of());
        extraPods.add(pod);

        JsonNode body = json(TestPods.get(pod, "/platform/diagnostics/jvm?verbose=yes%20please&pod", "Authorization", AUTH));

        assertThat(body.path("pods").get(1).toString()).isEqualTo("{\"podName\":\"r-2\",\"podIp\":\"127.0.0.1\",\"jvm\":{}}");
        String request = peer.requests().getFirst();
        // the caller (here the test client's address) goes to every pod, whose rate of heavy calls counts it
        assertThat(request).startsWith("GET /platform/diagnostics/jvm?caller=127.0.0.1&internal=true&verbose=yes%20please HTTP/1.1");
        assertThat(request).containsIgnoringCase("authorization: " + AUTH + "\r\n");
    }

    @Test
    void aPodThatDripsItsAnnouncedAnswerIsCutAtItsTimeout() throws Exception {
        String body = "{\"podName\":\"d-2\",\"jvm\":{\"padding\":\"" + "x".repeat(40) + "\"}}";
        LoopbackPeers.RawServer dripping = LoopbackPeers.RawServer.writing(out -> {
            out.write(LoopbackPeers.http200(body).substring(0, LoopbackPeers.http200(body).length() - body.length())
                    .getBytes(StandardCharsets.UTF_8));
            for (byte b : body.getBytes(StandardCharsets.UTF_8)) {
                out.write(b);
                out.flush();
                Thread.sleep(100);
            }
        });
        extras.add(dripping);
        int port = LoopbackPeers.freePort();
        String peers = "d-1=http://127.0.0.1:" + port + ",d-2=" + dripping.url() + "," + staticList(Map.of("d-3", PORTS.get("worker-a")));
        Pod pod = start("d-1", port, peers, Map.of("pylon.broadcast.pod-timeout", "1s"));
        extraPods.add(pod);

        long t0 = System.nanoTime();
        JsonNode answer = json(TestPods.get(pod, "/platform/diagnostics/jvm", "Authorization", AUTH));
        long elapsedMs = (System.nanoTime() - t0) / 1_000_000;

        // each byte comes well within the per-read timeout; the whole answer (over 6 s) does not come within 1 s
        assertThat(answer.path("pods").get(1).path("error").path("status").asInt()).isEqualTo(504);
        assertThat(answer.path("pods").get(2).path("podName").asText()).isEqualTo("worker-a");
        assertThat(elapsedMs).isBetween(1000L, 2500L);
    }

    @Test
    void aPeersConnectionIsReusedByTheNextBroadcasts() throws Exception {
        LoopbackPeers.RawServer peer = LoopbackPeers.RawServer.keepingAlive("{\"podName\":\"k-2\",\"jvm\":{}}");
        extras.add(peer);
        int port = LoopbackPeers.freePort();
        Pod pod = start("k-1", port, "k-1=http://127.0.0.1:" + port + ",k-2=" + peer.url(), Map.of());
        extraPods.add(pod);

        for (int i = 0; i < 5; i++) {
            JsonNode answer = json(TestPods.get(pod, "/platform/diagnostics/jvm", "Authorization", AUTH));
            assertThat(answer.path("summary").path("succeeded").asInt()).isEqualTo(2);
        }

        assertThat(peer.requests()).hasSize(5);
        assertThat(peer.connections()).isEqualTo(1);
    }

    @Test
    void aKeptAliveConnectionThePeerClosesAsTheRequestArrivesIsRetriedOnANewOne() throws Exception {
        assertEveryBroadcastAnswered(LoopbackPeers.RawServer.keepingAlive("{\"podName\":\"c-2\",\"jvm\":{}}", 1));
    }

    @Test
    void aKeptAliveConnectionThePeerResetsAsTheRequestArrivesIsRetriedOnANewOne() throws Exception {
        assertEveryBroadcastAnswered(LoopbackPeers.RawServer.keepingAliveThenResetting("{\"podName\":\"c-2\",\"jvm\":{}}", 1));
    }

    // the peer answers one request per connection and drops the connection on the next one, unanswered
    private void assertEveryBroadcastAnswered(LoopbackPeers.RawServer peer) throws Exception {
        extras.add(peer);
        int port = LoopbackPeers.freePort();
        Pod pod = start("c-1", port, "c-1=http://127.0.0.1:" + port + ",c-2=" + peer.url(), Map.of());
        extraPods.add(pod);

        for (int i = 0; i < 3; i++) {
            JsonNode answer = json(TestPods.get(pod, "/platform/diagnostics/jvm", "Authorization", AUTH));
            assertThat(answer.path("pods").get(1).path("error").toString()).isEqualTo("");
            assertThat(answer.path("summary").path("succeeded").asInt()).isEqualTo(2);
        }

        // 1st: a new connection, kept alive; 2nd: on it (dropped unanswered), then once more on a new one-off
        // connection; 3rd: nothing kept alive any more, a new connection
        assertThat(peer.requests()).hasSize(4);
        assertThat(peer.connections()).isEqualTo(3);
    }

    @Test
    void anAnswerShorterThanItsContentLengthIsListedWith502() throws Exception {
        LoopbackPeers.RawServer cut = LoopbackPeers.RawServer.writing(out -> out.write(("HTTP/1.1 200 OK\r\n"
                + "Content-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{\"podName\":\"t-2\"}")
                .getBytes(StandardCharsets.UTF_8)));
        extras.add(cut);
        int port = LoopbackPeers.freePort();
        Pod pod = start("t-1", port, "t-1=http://127.0.0.1:" + port + ",t-2=" + cut.url(), Map.of());
        extraPods.add(pod);

        JsonNode answer = json(TestPods.get(pod, "/platform/diagnostics/jvm", "Authorization", AUTH));

        assertThat(answer.path("pods").get(1).path("error").path("status").asInt()).isEqualTo(502);
        assertThat(answer.path("summary").path("succeeded").asInt()).isEqualTo(1);
    }

    @Test
    void anAnswerAnnouncedLargerThanTheLimitIsRefusedWithoutWaitingForIt() throws Exception {
        // announces 2 MiB, sends none of it and keeps the connection open longer than the per-pod timeout
        LoopbackPeers.RawServer huge = LoopbackPeers.RawServer.writing(out -> {
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + 2 * 1024 * 1024
                    + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            Thread.sleep(30_000);
        });
        extras.add(huge);
        int port = LoopbackPeers.freePort();
        Pod pod = start("l-1", port, "l-1=http://127.0.0.1:" + port + ",l-2=" + huge.url(),
                Map.of("pylon.broadcast.max-answer-mb", "1", "pylon.broadcast.pod-timeout", "10s"));
        extraPods.add(pod);
        TestPods.get(pod, "/platform/diagnostics/jvm", "Authorization", AUTH); // the first call builds the peer client

        long t0 = System.nanoTime();
        JsonNode answer = json(TestPods.get(pod, "/platform/diagnostics/jvm", "Authorization", AUTH));
        long elapsedMs = (System.nanoTime() - t0) / 1_000_000;

        assertThat(answer.path("pods").get(1).path("error").path("status").asInt()).isEqualTo(502);
        assertThat(answer.path("pods").get(1).path("error").path("message").asText()).contains("larger than 1 MiB");
        assertThat(elapsedMs).isLessThan(8000L);
    }

    @Test
    void aMalformedAnswerIsListedWith502() throws Exception {
        LoopbackPeers.RawServer broken = new LoopbackPeers.RawServer(LoopbackPeers.http200("{\"podName\":\"m-2\",\"jvm\":"));
        LoopbackPeers.RawServer notJson = new LoopbackPeers.RawServer(LoopbackPeers.http200("<html>hello</html>"));
        extras.add(broken);
        extras.add(notJson);
        int port = LoopbackPeers.freePort();
        Pod pod = start("m-1", port, "m-1=http://127.0.0.1:" + port + ",m-2=" + broken.url() + ",m-3=" + notJson.url(), Map.of());
        extraPods.add(pod);

        HttpResponse<String> response = TestPods.get(pod, "/platform/diagnostics/jvm", "Authorization", AUTH);

        JsonNode body = json(response);
        assertThat(body.path("pods").get(1).path("error").path("status").asInt()).isEqualTo(502);
        assertThat(body.path("pods").get(1).path("error").path("message").asText()).contains("malformed");
        assertThat(body.path("pods").get(2).path("error").path("status").asInt()).isEqualTo(502);
        assertThat(body.path("summary").path("succeeded").asInt()).isEqualTo(1);
    }

    @Test
    void aDiscoveryFailureAnswersForThisPodAloneWithTheError() throws Exception {
        Pod pod = TestPods.start(new FakeModule("worker").servingDiagnostics(), "d-1", Map.of("pylon.discovery.mode", "dns",
                "pylon.discovery.dns.service", "pylon-worker-headless.invalid"));
        extraPods.add(pod);

        HttpResponse<String> response = TestPods.get(pod, "/platform/diagnostics/jvm", "Authorization", AUTH);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(podNames(body)).containsExactly("d-1");
        assertThat(body.path("discovery").path("mode").asText()).isEqualTo("dns");
        assertThat(body.path("discovery").path("error").asText()).contains("pylon-worker-headless.invalid");
        assertThat(body.path("summary").path("total").asInt()).isEqualTo(1);
    }

    @Test
    void podParameterReachesTheNamedPod() throws Exception {
        Pod via = clusterPod("worker-a");
        for (String target : List.of("worker-a", "worker-b", "worker-c")) {
            HttpResponse<String> response = TestPods.get(via, "/platform/diagnostics/jvm?pod=" + target, "Authorization", AUTH);
            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode body = json(response);
            assertThat(body.path("podName").asText()).isEqualTo(target);
            assertThat(body.has("pods")).isFalse();
            assertThat(body.path("jvm").path("memory").path("heap").path("used").asLong()).isPositive();
        }
    }

    @Test
    void podParameterWithAnUnknownPodIs404() throws Exception {
        HttpResponse<String> response = TestPods.get(clusterPod("worker-a"), "/platform/diagnostics/jvm?pod=worker-z",
                "Authorization", AUTH);

        assertThat(response.statusCode()).isEqualTo(404);
        JsonNode body = json(response);
        assertThat(body.path("error").asText()).isEqualTo("not_found");
        assertThat(body.path("error_description").asText()).contains("worker-z").contains("worker-b");
    }

    @Test
    void podParameterPassesOnThePodsOwnRefusal() throws Exception {
        HttpResponse<String> response = TestPods.get(clusterPod("worker-a"), "/platform/diagnostics/jvm?pod=worker-c",
                "Authorization", "wrong");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(json(response).path("error").asText()).isEqualTo("unauthorized");
    }

    @Test
    void aHeapDumpOfAnotherPodIsStreamedThrough() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(TestPods.baseUrl(clusterPod("worker-a"))
                        + "/platform/diagnostics/heapdump?pod=worker-c"))
                .header("Authorization", AUTH).timeout(Duration.ofSeconds(60)).GET().build();

        HttpResponse<byte[]> response = TestPods.client().send(request, HttpResponse.BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).as(() -> new String(response.body())).isEqualTo(200);
        assertThat(response.headers().firstValue("content-disposition").orElse("")).contains("worker-c");
        byte[] body = response.body();
        assertThat(body.length).isGreaterThan(100_000);
        assertThat(response.headers().firstValueAsLong("content-length")).hasValue(body.length);
        assertThat(new String(body, 0, 12, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("JAVA PROFILE");
    }
}
