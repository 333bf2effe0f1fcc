package io.pylon.worker.proxy;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.ScriptedUpstream;
import io.pylon.worker.testing.WireConnection;
import io.pylon.worker.testing.WireConnection.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each request's {@code X-Request-Id} on the wire: the one the upstream gets is the one the client gets back, on
 * the gateway's own answers too (404, 502, a 502 after the upstream's head was read), in their header and as their
 * JSON body's {@code request_id}, and on what the pod refuses before routing (a new one there, always); a client's
 * value is replaced
 * unless a trusted proxy sent it well-formed; the upstream's own gives way; switched off, the client's passes.
 */
class RequestIdOnTheWireTest {
    static ScriptedUpstream upstream;
    static Gateway gateway;
    static Gateway trusting;
    static Gateway off;
    static int closedPort;

    @BeforeAll
    static void start() throws Exception {
        upstream = ScriptedUpstream.start();
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            closedPort = s.getLocalPort();
        }
        String routes = """
                routes:
                  - {name: down, pathPrefix: /down, upstreams: ["http://127.0.0.1:%d"]}
                  - {name: api, pathPrefix: /api, stripPrefix: true, upstreams: [%s]}
                """.formatted(closedPort, upstream.url());
        gateway = Gateway.start("request-id-test", routes, Map.of());
        trusting = Gateway.start("request-id-trusting", routes, Map.of("pylon.worker.trusted-proxies", "127.0.0.0/8"));
        off = Gateway.start("request-id-off", routes, Map.of("pylon.worker.request-id", "false"));
    }

    @AfterAll
    static void stop() throws Exception {
        off.close();
        trusting.close();
        gateway.close();
        upstream.close();
    }

    @BeforeEach
    void forget() {
        upstream.clearSeen();
    }

    private static Message get(Gateway through, String path, String extraHeaders) throws Exception {
        URI uri = URI.create(through.url("/"));
        try (WireConnection c = WireConnection.open(uri.getHost(), uri.getPort())) {
            return c.send("GET " + path + " HTTP/1.1\r\nHost: api.test\r\n" + extraHeaders + "\r\n").read();
        }
    }

    @Test
    void theUpstreamAndTheClientSeeOneNewIdentifierInPlaceOfTheClients() throws Exception {
        Message answer = get(gateway, "/api/x", "X-Request-Id: forged\r\nX_Request_Id: forged-too\r\n");
        assertThat(answer.status()).isEqualTo(200);
        String id = answer.header("X-Request-Id");
        assertThat(UUID.fromString(id).version()).isEqualTo(4);
        ScriptedUpstream.Seen seen = upstream.seen().getFirst();
        assertThat(seen.headers()).filteredOn(h -> h[0].equalsIgnoreCase("X-Request-Id")
                || h[0].equalsIgnoreCase("X_Request_Id")).extracting(h -> h[1]).containsExactly(id);

        assertThat(get(gateway, "/api/x", "").header("X-Request-Id")).as("a new one each request").isNotEqualTo(id);
    }

    @Test
    void theUpstreamsOwnIdentifierGivesWay() throws Exception {
        Message answer = get(gateway, "/api/own-request-id", "");
        assertThat(answer.headers()).filteredOn(h -> h[0].equalsIgnoreCase("X-Request-Id")).extracting(h -> h[1])
                .containsExactly(upstream.seen().getFirst().header("X-Request-Id"));
    }

    @Test
    void theGatewaysOwnAnswersCarryTheIdentifier() throws Exception {
        Message noRoute = get(gateway, "/nowhere", "");
        assertThat(noRoute.status()).isEqualTo(404);
        assertThat(noRoute.header("X-Request-Id")).hasSize(36);
        assertThat(noRoute.start()).contains("\"request_id\":\"" + noRoute.header("X-Request-Id") + "\"");

        Message down = get(gateway, "/down/x", "");
        assertThat(down.status()).isEqualTo(502);
        assertThat(down.header("X-Request-Id")).hasSize(36);
        assertThat(down.start()).startsWith("{\"error\":\"bad_gateway\"")
                .endsWith(",\"request_id\":\"" + down.header("X-Request-Id") + "\"}");

        // the upstream's head was read and its headers copied, then its body broke off: the 502 keeps the identifier
        Message cut = get(gateway, "/api/close-early/1000", "");
        assertThat(cut.status()).isEqualTo(502);
        assertThat(cut.headers()).filteredOn(h -> h[0].equalsIgnoreCase("X-Request-Id")).extracting(h -> h[1])
                .containsExactly(upstream.seen().getFirst().header("X-Request-Id"));
        assertThat(cut.start()).contains("\"request_id\":\"" + cut.header("X-Request-Id") + "\"");
    }

    /** A malformed request line, an oversized header block: refused before routing, and identified all the same. */
    @Test
    void whatThePodRefusesBeforeRoutingCarriesANewIdentifier() throws Exception {
        java.util.List<Integer> statuses = new java.util.ArrayList<>();
        for (String request : java.util.List.of("garbage\r\n\r\n",
                "GET /api/x HTTP/1.1\r\nHost: api.test\r\nCookie: " + "a".repeat(40 * 1024) + "\r\n\r\n",
                "GET /api/x HTTP/1.1\r\nHost: api.test\r\nX-Request-Id: Root=1-6789-ab\r\nCookie: "
                        + "a".repeat(20 * 1024) + "\r\n\r\n")) {
            Message refused = send(trusting, request);
            statuses.add(refused.status());
            String id = refused.header("X-Request-Id");
            assertThat(UUID.fromString(id).version()).as("new, never the client's").isEqualTo(4);
            assertThat(refused.start()).contains("\"request_id\":\"" + id + "\"");
        }
        assertThat(statuses).containsExactly(400, 431, 431);
        Message off = send(RequestIdOnTheWireTest.off, "garbage\r\n\r\n");
        assertThat(off.status()).isEqualTo(400);
        assertThat(off.has("X-Request-Id")).isFalse();
        assertThat(off.start()).doesNotContain("request_id");
        assertThat(upstream.seen()).isEmpty();
    }

    private static Message send(Gateway through, String request) throws Exception {
        URI uri = URI.create(through.url("/"));
        try (WireConnection c = WireConnection.open(uri.getHost(), uri.getPort())) {
            return c.send(request).read();
        }
    }

    @Test
    void aTrustedProxysWellFormedIdentifierIsKept() throws Exception {
        Message kept = get(trusting, "/api/x", "X-Request-Id: Root=1-67891233-abcdef012345678912345678\r\n");
        assertThat(kept.header("X-Request-Id")).isEqualTo("Root=1-67891233-abcdef012345678912345678");
        assertThat(upstream.seen().getFirst().header("X-Request-Id"))
                .isEqualTo("Root=1-67891233-abcdef012345678912345678");

        upstream.clearSeen();
        Message replaced = get(trusting, "/api/x", "X-Request-Id: two words\r\n");
        assertThat(replaced.header("X-Request-Id")).hasSize(36);
        assertThat(upstream.seen().getFirst().header("X-Request-Id")).isEqualTo(replaced.header("X-Request-Id"));
    }

    @Test
    void switchedOffTheClientsIdentifierPassesAndNoneIsAdded() throws Exception {
        Message answer = get(off, "/api/x", "X-Request-Id: client-chosen\r\n");
        assertThat(answer.has("X-Request-Id")).isFalse();
        assertThat(upstream.seen().getFirst().header("X-Request-Id")).isEqualTo("client-chosen");
        Message noRoute = get(off, "/nowhere", "");
        assertThat(noRoute.has("X-Request-Id")).isFalse();
        assertThat(noRoute.start()).startsWith("{\"error\":\"not_found\"").doesNotContain("request_id");
    }
}
