package io.pylon.worker.listener;

import io.pylon.core.testing.TestPods;
import io.pylon.worker.WorkerModule;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestCertificates;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Worker's TLS listener: certificates made here with Bouncy Castle, mounted the way a Kubernetes Secret volume
 * is ({@code tls.crt -> ..data/tls.crt}, {@code ..data -> ..<timestamp>}, swapped by renaming {@code ..data}).
 */
class TlsListenerTest {
    static TestCertificates.Issued ca;
    static Path secret;
    static TestUpstream echo;
    static io.pylon.worker.testing.TestWebSocketUpstream webSockets;
    static Gateway gateway;
    static int generation;

    @BeforeAll
    static void start() throws IOException {
        ca = TestCertificates.authority("Test CA");
        secret = Files.createTempDirectory("pylon-tls");
        mount(TestCertificates.leaf("first", ca));
        Files.writeString(secret.resolve("ca.crt"), ca.certificatePem());
        echo = TestUpstream.echo("e");
        webSockets = new io.pylon.worker.testing.TestWebSocketUpstream();
        gateway = Gateway.start("worker-tls", """
                routes:
                  - name: echo
                    pathPrefix: /echo
                    upstreams: [%s]
                  - name: ws
                    pathPrefix: /ws
                    upstreams: [%s]
                """.formatted(echo.url(), webSockets.url()), Map.of(
                "pylon.worker.tls.certificate-file", secret.resolve("tls.crt").toString(),
                "pylon.worker.tls.key-file", secret.resolve("tls.key").toString(),
                "pylon.worker.tls.reload-interval", "200ms"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        echo.close();
        webSockets.close();
        TestPods.deleteTree(secret);
    }

    @Test
    void alpnChoosesHttp2ForCurlAndStreamsShareTheConnection() {
        List<String> args = new ArrayList<>(List.of("--http2", "--cacert", secret.resolve("ca.crt").toString(), "-Z",
                "--parallel-max", "20", "-w", "%{http_version} %{response_code} %{num_connects}\n"));
        for (int i = 0; i < 40; i++) {
            args.addAll(List.of("-o", "/dev/null", url("/echo/" + i)));
        }
        Curl.Result result = Curl.run(args.toArray(String[]::new));
        assertThat(result.exit()).as(result.err()).isZero();
        List<String> lines = result.out().lines().toList();
        assertThat(lines).hasSize(40).allMatch(l -> l.startsWith("2 200 "));
        assertThat(lines.stream().mapToInt(l -> Integer.parseInt(l.split(" ")[2])).sum()).isEqualTo(1);

        Curl.Result one = Curl.run("--http2", "--cacert", secret.resolve("ca.crt").toString(), "-w",
                "\n%{http_version} %{scheme}", url("/echo/x"));
        assertThat(one.out()).isEqualTo("e GET /echo/x\n2 HTTPS");
    }

    @Test
    void alpnHttp11AndTheForwardedProtoIsHttps() throws Exception {
        Curl.Result curl = Curl.run("--http1.1", "--cacert", secret.resolve("ca.crt").toString(), "-w",
                "\n%{http_version}", url("/echo/one"));
        assertThat(curl.out()).isEqualTo("e GET /echo/one\n1.1");

        for (HttpClient.Version version : HttpClient.Version.values()) {
            HttpClient client = HttpClient.newBuilder().version(version).sslContext(TestCertificates.trusting(ca))
                    .connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url("/echo/jdk"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.version()).isEqualTo(version);
            assertThat(response.body()).isEqualTo("e GET /echo/jdk");
            assertThat(response.headers().firstValue("x-seen-x-forwarded-proto")).hasValue("https");
        }
    }

    @Test
    void webSocketOverTls() throws Exception {
        java.util.concurrent.BlockingQueue<String> received = new java.util.concurrent.LinkedBlockingQueue<>();
        HttpClient client = HttpClient.newBuilder().sslContext(TestCertificates.trusting(ca)).build();
        java.net.http.WebSocket ws = client.newWebSocketBuilder().buildAsync(URI.create("wss://localhost:"
                + gateway.pod.port() + "/ws/echo"), new java.net.http.WebSocket.Listener() {
                    @Override
                    public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket socket,
                                                                          CharSequence data, boolean last) {
                        received.add(data.toString());
                        socket.request(1);
                        return null;
                    }
                }).get(30, java.util.concurrent.TimeUnit.SECONDS);
        ws.sendText("over tls", true).get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(received.poll(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("over tls");
        ws.abort();
    }

    @Test
    void plainHttpIsNotServedOnTheTlsListener() {
        Curl.Result plain = Curl.run("-w", "%{http_code}", "http://127.0.0.1:" + gateway.pod.port() + "/echo/x");
        assertThat(plain.out()).doesNotContain("e GET");
    }

    @Test
    void aSwappedSecretServesNewHandshakesWhileEstablishedConnectionsStayAndABrokenOneKeepsTheOld() throws Exception {
        try (SSLSocket old = connect()) {
            BigInteger before = serial(old);
            assertThat(exchange(old, "/echo/before")).contains("e GET /echo/before");

            TestCertificates.Issued next = TestCertificates.leaf("second", ca);
            mount(next);
            Gateway.await("a new handshake gets the new certificate", 30_000, () -> servedSerial().equals(
                    next.certificate().getSerialNumber()));
            assertThat(tls().get("loads")).isEqualTo(2L);
            assertThat(tls().get("subject")).isEqualTo("CN=second");

            // the connection opened before the swap still works, with the session it negotiated
            assertThat(exchange(old, "/echo/after")).contains("e GET /echo/after");
            assertThat(serial(old)).isEqualTo(before);

            // a key that is not the certificate's: refused, logged, the second pair keeps serving
            TestCertificates.Issued other = TestCertificates.leaf("third", ca);
            mountRaw(other.certificatePem(), TestCertificates.leaf("stranger", ca).keyPem());
            Gateway.await("the broken pair is refused", 30_000, () -> tls().get("lastError") != null);
            assertThat((String) tls().get("lastError")).contains("is not the private key of the first certificate");
            assertThat(servedSerial()).isEqualTo(next.certificate().getSerialNumber());
            assertThat(tls().get("loads")).isEqualTo(2L);
        }
    }

    @Test
    void aPodWithABadKeyDoesNotStart() throws IOException {
        Path dir = Files.createTempDirectory("pylon-tls-bad");
        try {
            TestCertificates.Issued leaf = TestCertificates.leaf("bad", ca);
            Files.writeString(dir.resolve("tls.crt"), leaf.certificatePem());
            Files.writeString(dir.resolve("tls.key"), "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n");
            assertThatThrownBy(() -> TestPods.start(new WorkerModule(), "worker-bad-tls", Map.of(
                    "pylon.worker.tls.certificate-file", dir.resolve("tls.crt").toString(),
                    "pylon.worker.tls.key-file", dir.resolve("tls.key").toString())))
                    .hasMessageContaining("pylon.worker.tls.key-file")
                    .hasMessageContaining("not valid PEM key text");
            assertThatThrownBy(() -> TestPods.start(new WorkerModule(), "worker-half-tls", Map.of(
                    "pylon.worker.tls.certificate-file", dir.resolve("tls.crt").toString())))
                    .hasMessageContaining("go together");
        } finally {
            TestPods.deleteTree(dir);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> tls() {
        return (Map<String, Object>) gateway.connections().get("tls");
    }

    static String url(String path) {
        return "https://localhost:" + gateway.pod.port() + path;
    }

    static SSLSocket connect() throws IOException {
        SSLSocket socket = (SSLSocket) TestCertificates.trusting(ca).getSocketFactory().createSocket();
        socket.connect(new InetSocketAddress("127.0.0.1", gateway.pod.port()), 10_000);
        socket.setSoTimeout(30_000);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(new String[]{"http/1.1"});
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    static BigInteger serial(SSLSocket socket) throws IOException {
        return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
    }

    static BigInteger servedSerial() {
        try (SSLSocket socket = connect()) {
            return serial(socket);
        } catch (IOException e) {
            return BigInteger.ZERO;
        }
    }

    static String exchange(SSLSocket socket, String path) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head);
            }
            head.append((char) b);
        }
        int length = Integer.parseInt(head.toString().lines()
                .filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:"))
                .findFirst().orElseThrow().substring(15).trim());
        return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    static void mount(TestCertificates.Issued leaf) throws IOException {
        mountRaw(leaf.certificatePem(), leaf.keyPem());
    }

    /** What the kubelet does on a Secret update: a new timestamped folder, then {@code ..data} renamed over. */
    static void mountRaw(String certificate, String key) throws IOException {
        Path version = secret.resolve("..v" + (++generation));
        Files.createDirectory(version);
        Files.writeString(version.resolve("tls.crt"), certificate);
        Files.writeString(version.resolve("tls.key"), key);
        Path next = secret.resolve("..data_tmp");
        Files.createSymbolicLink(next, version.getFileName());
        Files.move(next, secret.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        for (String name : List.of("tls.crt", "tls.key")) {
            if (!Files.exists(secret.resolve(name), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.createSymbolicLink(secret.resolve(name), Path.of("..data", name));
            }
        }
    }
}
