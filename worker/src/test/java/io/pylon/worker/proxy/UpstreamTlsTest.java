package io.pylon.worker.proxy;

import io.pylon.core.testing.TestPods;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.LogCapture;
import io.pylon.worker.testing.Nginx;
import io.pylon.worker.testing.TestCertificates;
import io.pylon.worker.testing.TlsUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-proxy upstream TLS on the wire: real HTTPS upstreams with certificates made here, the same cases through a
 * Worker and through nginx configured with the directives an operator would use ({@code proxy_ssl_trusted_certificate},
 * {@code proxy_ssl_verify}, {@code proxy_ssl_name}, {@code proxy_ssl_server_name}, {@code proxy_ssl_certificate}).
 */
class UpstreamTlsTest {
    static TestCertificates.Issued upstreamCa;
    static TestCertificates.Issued otherCa;
    static TestCertificates.Issued clientCa;
    static Path dir;
    static TlsUpstream plain;
    static TlsUpstream mutual;
    static io.pylon.worker.testing.TestWebSocketUpstream webSockets;
    static Gateway gateway;
    static Nginx nginx;
    static LogCapture warnings;
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() throws IOException {
        Nginx.binary();
        upstreamCa = TestCertificates.authority("Upstream CA");
        otherCa = TestCertificates.authority("Other CA");
        clientCa = TestCertificates.authority("Client CA");
        dir = Files.createTempDirectory("pylon-upstream-tls");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(dir.resolve("upstream-ca.pem"), upstreamCa.certificatePem());
        Files.writeString(dir.resolve("other-ca.pem"), otherCa.certificatePem());
        Files.writeString(dir.resolve("rotating-ca.pem"), otherCa.certificatePem());
        TestCertificates.leafFor(clientCa, "gateway.test").write(dir, "client");
        TestCertificates.leafFor(otherCa, "gateway.test").write(dir, "stranger");
        for (String file : List.of("client.key", "stranger.key")) {
            Files.setPosixFilePermissions(dir.resolve(file), PosixFilePermissions.fromString("rw-r--r--"));
        }
        plain = TlsUpstream.start(TestCertificates.leafFor(upstreamCa, "upstream.test"));
        mutual = TlsUpstream.mutual(TestCertificates.leafFor(upstreamCa, "upstream.test"), clientCa);

        webSockets = new io.pylon.worker.testing.TestWebSocketUpstream(
                TestCertificates.leafFor(upstreamCa, "upstream.test").context(null));
        String p = plain.url();
        String m = mutual.url();
        String w = "https://127.0.0.1:" + java.net.URI.create(webSockets.url()).getPort();
        warnings = LogCapture.open(Level.WARNING);
        gateway = Gateway.start("worker-upstream-tls", """
                routes:
                  - {name: trusted, pathPrefix: /trusted, upstreams: [%1$s],
                     upstreamTls: {caFile: %3$s/upstream-ca.pem, serverName: upstream.test}}
                  - {name: wrong-ca, pathPrefix: /wrong-ca, upstreams: [%1$s],
                     upstreamTls: {caFile: %3$s/other-ca.pem, serverName: upstream.test}}
                  - {name: jdk-trust, pathPrefix: /jdk-trust, upstreams: [%1$s]}
                  - {name: by-address, pathPrefix: /by-address, upstreams: [%1$s],
                     upstreamTls: {caFile: %3$s/upstream-ca.pem}}
                  - {name: other-name, pathPrefix: /other-name, upstreams: [%1$s],
                     upstreamTls: {caFile: %3$s/upstream-ca.pem, serverName: other.test}}
                  - {name: unverified, pathPrefix: /unverified, upstreams: [%1$s],
                     upstreamTls: {verify: false}}
                  - {name: mtls, pathPrefix: /mtls, upstreams: [%2$s],
                     upstreamTls: {caFile: %3$s/upstream-ca.pem, serverName: upstream.test,
                                   certificateFile: %3$s/client.crt, keyFile: %3$s/client.key}}
                  - {name: mtls-stranger, pathPrefix: /stranger, upstreams: [%2$s],
                     upstreamTls: {caFile: %3$s/upstream-ca.pem, serverName: upstream.test,
                                   certificateFile: %3$s/stranger.crt, keyFile: %3$s/stranger.key}}
                  - {name: no-cert, pathPrefix: /no-cert, upstreams: [%2$s],
                     upstreamTls: {caFile: %3$s/upstream-ca.pem, serverName: upstream.test}}
                  - {name: rotating, pathPrefix: /rotating, upstreams: [%1$s],
                     upstreamTls: {caFile: %3$s/rotating-ca.pem, serverName: upstream.test}}
                  - {name: ws, pathPrefix: /ws, upstreams: [%4$s],
                     upstreamTls: {caFile: %3$s/upstream-ca.pem, serverName: upstream.test}}
                """.formatted(p, m, dir, w), Map.of("pylon.worker.tls.reload-interval", "200ms"));
        String ssl = "proxy_ssl_verify on; proxy_ssl_server_name on; proxy_ssl_session_reuse off;";
        nginx = Nginx.start("", """
                location /trusted { proxy_pass %1$s; %4$s proxy_ssl_trusted_certificate %3$s/upstream-ca.pem;
                                    proxy_ssl_name upstream.test; }
                location /wrong-ca { proxy_pass %1$s; %4$s proxy_ssl_trusted_certificate %3$s/other-ca.pem;
                                     proxy_ssl_name upstream.test; }
                location /other-name { proxy_pass %1$s; %4$s proxy_ssl_trusted_certificate %3$s/upstream-ca.pem;
                                       proxy_ssl_name other.test; }
                location /unverified { proxy_pass %1$s; proxy_ssl_verify off; }
                location /mtls { proxy_pass %2$s; %4$s proxy_ssl_trusted_certificate %3$s/upstream-ca.pem;
                                 proxy_ssl_name upstream.test; proxy_ssl_certificate %3$s/client.crt;
                                 proxy_ssl_certificate_key %3$s/client.key; }
                location /stranger { proxy_pass %2$s; %4$s proxy_ssl_trusted_certificate %3$s/upstream-ca.pem;
                                     proxy_ssl_name upstream.test; proxy_ssl_certificate %3$s/stranger.crt;
                                     proxy_ssl_certificate_key %3$s/stranger.key; }
                location /no-cert { proxy_pass %2$s; %4$s proxy_ssl_trusted_certificate %3$s/upstream-ca.pem;
                                    proxy_ssl_name upstream.test; }
                """.formatted(p, m, dir, ssl));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (nginx != null) {
            nginx.close();
        }
        warnings.close();
        plain.close();
        mutual.close();
        webSockets.close();
        TestPods.deleteTree(dir);
    }

    record Answer(int status, String body, String clientSubject) {
    }

    static Answer worker(String path) {
        return get(gateway.url(path));
    }

    static Answer nginx(String path) {
        return get("http://127.0.0.1:" + nginx.port() + path);
    }

    static Answer get(String url) {
        try {
            HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body(),
                    response.headers().firstValue("X-Client-Subject").orElse(""));
        } catch (IOException e) {
            throw new AssertionError(url + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Test
    void aTrustedAuthorityAndTheRightNamePassAsThroughNginx() {
        Answer viaWorker = worker("/trusted/a");
        assertThat(viaWorker.status()).isEqualTo(200);
        assertThat(viaWorker.body()).isEqualTo("tls /trusted/a");
        assertThat(plain.lastServerName()).as("SNI sent by the Worker").isEqualTo("upstream.test");
        Answer viaNginx = nginx("/trusted/a");
        assertThat(viaNginx.status()).isEqualTo(200);
        assertThat(plain.lastServerName()).as("SNI sent by nginx").isEqualTo("upstream.test");
        assertThat(viaWorker.body()).isEqualTo(viaNginx.body());
        // kept alive: a second request reuses the pooled connection
        assertThat(worker("/trusted/b").status()).isEqualTo(200);
    }

    @Test
    void anUntrustedCertificateIs502NamingTheTlsFailureAsNginxRefusesIt() {
        Answer viaWorker = worker("/wrong-ca/x");
        assertThat(viaWorker.status()).isEqualTo(502);
        assertThat(viaWorker.body()).contains("\"bad_gateway\"").contains("TLS to the upstream failed")
                .contains("not signed by an authority this route trusts").doesNotContain("127.0.0.1");
        assertThat(nginx("/wrong-ca/x").status()).isEqualTo(502);
        assertThat(nginx.errorLog()).contains("upstream SSL certificate verify error");
        // the same origin through another proxy with the right authority still passes: pools are per TLS setting
        assertThat(worker("/trusted/c").status()).isEqualTo(200);
        assertThat(worker("/wrong-ca/y").status()).isEqualTo(502);
        // without upstreamTls the JDK's trust store decides, and it does not know the test authority
        assertThat(worker("/jdk-trust/x").body()).contains("not signed by an authority");
    }

    @Test
    void aNameTheCertificateDoesNotCarryIs502UnlessServerNameOrVerifySaySo() {
        Answer viaWorker = worker("/other-name/x");
        assertThat(viaWorker.status()).isEqualTo(502);
        assertThat(viaWorker.body()).contains("not for the name checked");
        assertThat(nginx("/other-name/x").status()).isEqualTo(502);
        // the URL's host (127.0.0.1) is checked when no serverName is set: the certificate is for upstream.test only
        Answer byAddress = worker("/by-address/x");
        assertThat(byAddress.status()).isEqualTo(502);
        assertThat(byAddress.body()).contains("not for the name checked");
        // verify: false accepts it, as proxy_ssl_verify off does
        assertThat(worker("/unverified/x").body()).isEqualTo("tls /unverified/x");
        assertThat(nginx("/unverified/x").body()).isEqualTo("tls /unverified/x");
    }

    @Test
    void verifyOffIsLoggedOnceAtLoadNeverPerRequest() {
        for (int i = 0; i < 5; i++) {
            assertThat(worker("/unverified/" + i).status()).isEqualTo(200);
        }
        assertThat(warnings.lines().stream().filter(l -> l.contains("upstreamTls.verify is false"))).hasSize(1)
                .allMatch(l -> l.contains("'unverified'"));
    }

    @Test
    void anUpstreamRequiringAClientCertificateAcceptsOnlyOneItTrusts() {
        Answer viaWorker = worker("/mtls/x");
        assertThat(viaWorker.status()).isEqualTo(200);
        assertThat(viaWorker.clientSubject()).isEqualTo("CN=gateway.test");
        Answer viaNginx = nginx("/mtls/x");
        assertThat(viaNginx.status()).isEqualTo(200);
        assertThat(viaNginx.clientSubject()).isEqualTo(viaWorker.clientSubject());

        Answer noCertificate = worker("/no-cert/x");
        assertThat(noCertificate.status()).isEqualTo(502);
        assertThat(noCertificate.body()).contains("TLS to the upstream failed");
        assertThat(nginx("/no-cert/x").status()).isEqualTo(502);

        Answer stranger = worker("/stranger/x");
        assertThat(stranger.status()).isEqualTo(502);
        assertThat(stranger.body()).contains("TLS to the upstream failed");
        assertThat(nginx("/stranger/x").status()).isEqualTo(502);
    }

    @Test
    void aRotatedAuthorityFileServesNewConnections() throws IOException {
        assertThat(worker("/rotating/x").status()).isEqualTo(502);
        Path next = dir.resolve("rotating-ca.next");
        Files.writeString(next, upstreamCa.certificatePem());
        Files.move(next, dir.resolve("rotating-ca.pem"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        Gateway.await("the rotated authority to be used", 30_000, () -> worker("/rotating/x").status() == 200);
    }

    @Test
    void aWebSocketHandshakeUsesTheRoutesTlsSetting() throws Exception {
        java.util.concurrent.CompletableFuture<String> echoed = new java.util.concurrent.CompletableFuture<>();
        java.net.http.WebSocket ws = CLIENT.newWebSocketBuilder().buildAsync(URI.create(gateway.url("/ws/echo")
                .replace("http://", "ws://")), new java.net.http.WebSocket.Listener() {
                    @Override
                    public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket socket,
                                                                           CharSequence data, boolean last) {
                        echoed.complete(data.toString());
                        return null;
                    }
                }).get(30, java.util.concurrent.TimeUnit.SECONDS);
        ws.sendText("over wss", true);
        assertThat(echoed.get(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("over wss");
        ws.abort();
    }

    @Test
    void connectionsShowEachPoolWithItsTlsSetting() {
        worker("/trusted/d");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> pools = (List<Map<String, Object>>) gateway.connections().get("pools");
        assertThat(pools).filteredOn(pool -> List.of("trusted").equals(pool.get("routes"))).singleElement()
                .satisfies(pool -> assertThat((String) pool.get("tls")).contains("upstream-ca.pem")
                        .contains("serverName=upstream.test").contains("verify=true"));
        assertThat(pools).filteredOn(pool -> List.of("jdk-trust").equals(pool.get("routes"))).singleElement()
                .satisfies(pool -> assertThat(pool.get("tls")).isNull());
    }
}
