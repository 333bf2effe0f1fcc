package io.pylon.portal;

import com.sun.net.httpserver.HttpServer;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which developer address a Portal pod hands its Manager with a sign-in (the address the Manager's sign-in throttling
 * counts per), on real sockets: the connection's own peer, unless that peer is one of
 * {@code pylon.portal.trusted-proxies}; then the right-most X-Forwarded-For entry that is not a trusted proxy. The
 * Manager here is a recording HTTP server that grants the Portal a token and refuses every sign-in.
 */
class ForwardedDeveloperAddressTest {
    private final List<String> forwarded = new CopyOnWriteArrayList<>();
    private HttpServer manager;
    private Pod portal;

    @BeforeEach
    void manager() throws IOException {
        manager = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        manager.createContext("/apiops/auth/token", exchange -> answer(exchange, 200,
                "{\"access_token\":\"portal-token\",\"token_type\":\"Bearer\",\"expires_in\":300}"));
        manager.createContext("/apiops/portal/sessions", exchange -> {
            forwarded.add(String.valueOf(exchange.getRequestHeaders().getFirst("X-Pylon-Developer-Address")));
            answer(exchange, 401, "{\"error\":\"invalid_grant\",\"error_description\":\"Wrong e-mail or password.\"}");
        });
        manager.start();
    }

    @AfterEach
    void stop() {
        if (portal != null) {
            portal.stop();
        }
        manager.stop(0);
    }

    @Test
    void withoutTrustedProxiesAForwardedForHeaderIsIgnored() {
        portal = portal(Map.of());
        assertThat(signIn("203.0.113.9").statusCode()).isEqualTo(401);
        assertThat(signIn(null).statusCode()).isEqualTo(401);
        assertThat(forwarded).containsExactly("127.0.0.1", "127.0.0.1");
    }

    @Test
    void behindATrustedIngressEachDeveloperIsTheirOwnAddress() {
        portal = portal(Map.of("pylon.portal.trusted-proxies", "127.0.0.0/8, 10.0.0.0/8"));
        signIn("203.0.113.9");
        signIn("198.51.100.20, 10.0.0.7");
        signIn("203.0.113.66, 198.51.100.21"); // a spoofed left-most entry is not believed
        signIn("not-an-address");
        signIn(null);
        assertThat(forwarded).containsExactly("203.0.113.9", "198.51.100.20", "198.51.100.21", "127.0.0.1",
                "127.0.0.1");
    }

    @Test
    void aTrustedProxiesSettingThatNamesAHostIsRefusedAtStart() {
        Map<String, String> settings = settings(Map.of("pylon.portal.trusted-proxies", "ingress.local"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TestPods.start(new PortalModule(), "portal-bad",
                settings)).hasStackTraceContaining("pylon.portal.trusted-proxies");
    }

    private Pod portal(Map<String, String> extra) {
        return TestPods.start(new PortalModule(), "portal-forwarded", settings(extra));
    }

    private Map<String, String> settings(Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(extra);
        settings.put("pylon.portal.manager-url", "http://127.0.0.1:" + manager.getAddress().getPort());
        settings.put("pylon.portal.manager-password", "portal-Passw0rd-forwarded");
        return settings;
    }

    private java.net.http.HttpResponse<String> signIn(String forwardedFor) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(TestPods.baseUrl(portal) + "/api/signin"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"email\":\"dev@example.com\",\"password\":\"wrong\"}"));
        if (forwardedFor != null) {
            request.header("X-Forwarded-For", forwardedFor);
        }
        return TestPods.send(request.build());
    }

    private static void answer(com.sun.net.httpserver.HttpExchange exchange, int status, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}
