package io.pylon.worker.proxy;

import io.grpc.CallOptions;
import io.grpc.Context;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.helidon.webserver.WebServer;
import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.TestCertificates;
import io.pylon.worker.testing.TestUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.pylon.worker.testing.TestBodies.checksum;
import static io.pylon.worker.testing.TestBodies.pattern;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Routes with {@code upstreamProtocol: HTTP/2}, on the wire: a real gRPC client (grpc-java, Netty) through the Worker
 * to a real gRPC server, over h2c and over TLS with ALPN (unary, server streaming, full-duplex streaming, an error
 * status in the trailers, a call the client gives up); and a Helidon HTTP/2 server behind the Worker for HTTP/1.1 and
 * HTTP/2 clients, with large bodies both ways and many requests on one upstream connection.
 */
class Http2UpstreamTest {
    static final int LARGE = 4 * 1024 * 1024 + 7;
    static final MethodDescriptor.Marshaller<String> TEXT = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }
    };
    static final MethodDescriptor<String, String> SAY = method("Say", MethodDescriptor.MethodType.UNARY);
    static final MethodDescriptor<String, String> COUNT = method("Count", MethodDescriptor.MethodType.SERVER_STREAMING);
    static final MethodDescriptor<String, String> CHAT = method("Chat", MethodDescriptor.MethodType.BIDI_STREAMING);
    static final MethodDescriptor<String, String> HANG = method("Hang", MethodDescriptor.MethodType.UNARY);
    static final CountDownLatch HANG_CANCELLED = new CountDownLatch(1);
    static final AtomicReference<Metadata> LAST_HEADERS = new AtomicReference<>();

    static final MethodDescriptor<String, String> SLOW = method("Slow", MethodDescriptor.MethodType.UNARY);
    static Server grpc;
    static Server grpcTls;
    static Server grpcOneStream;
    static WebServer helidon;
    static final Set<Integer> HELIDON_PEERS = ConcurrentHashMap.newKeySet();
    static Path dir;
    static Gateway gateway;
    static ManagedChannel channel;

    static MethodDescriptor<String, String> method(String name, MethodDescriptor.MethodType type) {
        return MethodDescriptor.newBuilder(TEXT, TEXT).setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName("test.Echo", name)).build();
    }

    static ServerServiceDefinition service() {
        ServerServiceDefinition echo = ServerServiceDefinition.builder("test.Echo")
                .addMethod(SAY, ServerCalls.asyncUnaryCall((String request, StreamObserver<String> out) -> {
                    if (request.equals("fail")) {
                        out.onError(Status.INVALID_ARGUMENT.withDescription("fail is refused").asRuntimeException());
                        return;
                    }
                    out.onNext("hello " + request);
                    out.onCompleted();
                }))
                .addMethod(COUNT, ServerCalls.asyncServerStreamingCall((String request, StreamObserver<String> out) -> {
                    for (int i = 1; i <= Integer.parseInt(request); i++) {
                        out.onNext("n" + i);
                    }
                    out.onCompleted();
                }))
                .addMethod(CHAT, ServerCalls.asyncBidiStreamingCall((StreamObserver<String> out) ->
                        new StreamObserver<>() {
                            @Override
                            public void onNext(String value) {
                                out.onNext("re " + value);
                            }

                            @Override
                            public void onError(Throwable t) {
                            }

                            @Override
                            public void onCompleted() {
                                out.onCompleted();
                            }
                        }))
                .addMethod(HANG, ServerCalls.asyncUnaryCall((String request, StreamObserver<String> out) ->
                        Context.current().addListener(context -> HANG_CANCELLED.countDown(), Runnable::run)))
                .addMethod(SLOW, ServerCalls.asyncUnaryCall((String request, StreamObserver<String> out) -> {
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    out.onNext("slow " + request);
                    out.onCompleted();
                }))
                .build();
        return ServerInterceptors.intercept(echo, new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                              ServerCallHandler<Q, R> next) {
                LAST_HEADERS.set(headers);
                return next.startCall(call, headers);
            }
        });
    }

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("pylon-h2-upstream");
        TestCertificates.Issued ca = TestCertificates.authority("h2 upstream ca");
        TestCertificates.Issued leaf = TestCertificates.leaf("localhost", ca);
        leaf.write(dir, "upstream");
        Files.writeString(dir.resolve("ca.pem"), ca.certificatePem());
        grpc = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0), InsecureServerCredentials.create())
                .addService(service()).build().start();
        grpcTls = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0),
                        TlsServerCredentials.create(dir.resolve("upstream.crt").toFile(),
                                dir.resolve("upstream.key").toFile()))
                .addService(service()).build().start();
        grpcOneStream = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0),
                        InsecureServerCredentials.create())
                .maxConcurrentCallsPerConnection(1).addService(service()).build().start();
        helidon = WebServer.builder().host("127.0.0.1").port(0)
                .routing(r -> r
                        .get("/files/large", (req, res) -> {
                            HELIDON_PEERS.add(req.remotePeer().port());
                            res.send(pattern(LARGE));
                        })
                        .post("/files/sum", (req, res) -> {
                            byte[] body = req.content().inputStream().readAllBytes();
                            res.send(body.length + " " + checksum(body));
                        })
                        .get("/files/who", (req, res) -> {
                            HELIDON_PEERS.add(req.remotePeer().port());
                            res.send(req.prologue().protocolVersion() + " " + req.authority() + " "
                                    + req.headers().first(io.helidon.http.HeaderNames.USER_AGENT).orElse("-"));
                        }))
                .build().start();
        gateway = Gateway.start("""
                routes:
                  - name: grpc
                    pathPrefix: /test.Echo
                    upstreams: [http://127.0.0.1:%d]
                    upstreamProtocol: HTTP/2
                  - name: grpc-tls
                    pathPrefix: /tls/test.Echo
                    stripPrefix: false
                    rewritePrefix: /test.Echo
                    upstreams: [https://localhost:%d]
                    upstreamProtocol: HTTP/2
                    upstreamTls: {caFile: %s}
                  - name: one-stream
                    pathPrefix: /one/test.Echo
                    rewritePrefix: /test.Echo
                    upstreams: [http://127.0.0.1:%d]
                    upstreamProtocol: HTTP/2
                  - name: files
                    pathPrefix: /files
                    upstreams: [http://127.0.0.1:%d]
                    upstreamProtocol: HTTP/2
                  - name: kept
                    pathPrefix: /kept
                    rewritePrefix: /files
                    preserveHost: true
                    upstreams: [http://127.0.0.1:%d]
                    upstreamProtocol: HTTP/2
                  - name: old
                    pathPrefix: /old
                    upstreams: [%s]
                    upstreamProtocol: HTTP/2
                """.formatted(grpc.getPort(), grpcTls.getPort(), dir.resolve("ca.pem"), grpcOneStream.getPort(), helidon.port(),
                helidon.port(),
                TestUpstream.echo("e").url()));
        URI base = URI.create(gateway.url("/"));
        channel = Grpc.newChannelBuilderForAddress(base.getHost(), base.getPort(), InsecureChannelCredentials.create())
                .build();
    }

    @AfterAll
    static void stop() throws Exception {
        channel.shutdownNow();
        gateway.close();
        grpc.shutdownNow();
        grpcTls.shutdownNow();
        grpcOneStream.shutdownNow();
        helidon.stop();
    }

    @Test
    void aUnaryGrpcCallGoesThroughWithItsStatus() {
        assertThat(ClientCalls.blockingUnaryCall(channel, SAY, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS),
                "pylon")).isEqualTo("hello pylon");
        Metadata headers = LAST_HEADERS.get();
        assertThat(headers.get(Metadata.Key.of("x-forwarded-for", Metadata.ASCII_STRING_MARSHALLER)))
                .isEqualTo("127.0.0.1");
    }

    @Test
    void anErrorStatusInTheTrailersReachesTheClient() {
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, SAY,
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "fail"))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                    assertThat(e.getStatus().getDescription()).isEqualTo("fail is refused");
                });
    }

    @Test
    void aServerStreamingCallGetsEveryMessage() {
        Iterator<String> answers = ClientCalls.blockingServerStreamingCall(channel, COUNT,
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "500");
        List<String> all = new ArrayList<>();
        answers.forEachRemaining(all::add);
        assertThat(all).hasSize(500).startsWith("n1").endsWith("n500");
    }

    @Test
    void aFullDuplexCallHasEachAnswerBeforeTheNextQuestion() throws Exception {
        BlockingQueue<String> answers = new LinkedBlockingQueue<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        StreamObserver<String> questions = ClientCalls.asyncBidiStreamingCall(
                channel.newCall(CHAT, CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS)),
                new StreamObserver<>() {
                    @Override
                    public void onNext(String value) {
                        answers.add(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                        done.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        done.complete(null);
                    }
                });
        for (int i = 0; i < 20; i++) {
            questions.onNext("q" + i);
            // the request stream is still open: this answer crossed the gateway while the client kept sending
            assertThat(answers.poll(5, TimeUnit.SECONDS)).isEqualTo("re q" + i);
        }
        questions.onCompleted();
        done.get(10, TimeUnit.SECONDS);
    }

    @Test
    void grpcOverTlsWithAlpnToTheUpstream() {
        assertThat(ClientCalls.blockingUnaryCall(channel, method("Say", MethodDescriptor.MethodType.UNARY)
                        .toBuilder().setFullMethodName("tls/test.Echo/Say").build(),
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "tls")).isEqualTo("hello tls");
    }

    @Test
    void aCallTheClientGivesUpIsCancelledAtTheUpstream() throws Exception {
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, HANG,
                CallOptions.DEFAULT.withDeadlineAfter(500, TimeUnit.MILLISECONDS), "x"))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
        assertThat(HANG_CANCELLED.await(5, TimeUnit.SECONDS)).as("the upstream's call was cancelled").isTrue();
        assertThat(ClientCalls.blockingUnaryCall(channel, SAY,
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "after")).isEqualTo("hello after");
    }

    @Test
    void callsBeyondTheStreamsTheUpstreamAllowsWaitForAPlace() throws Exception {
        MethodDescriptor<String, String> slow = SLOW.toBuilder().setFullMethodName("one/test.Echo/Slow").build();
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String question = "c" + i;
            calls.add(CompletableFuture.supplyAsync(() -> ClientCalls.blockingUnaryCall(channel, slow,
                    CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS), question)));
        }
        for (int i = 0; i < calls.size(); i++) {
            assertThat(calls.get(i).get(30, TimeUnit.SECONDS)).isEqualTo("slow c" + i);
        }
    }

    @Test
    void http11AndHttp2ClientsReachAnHttp2UpstreamWithLargeBodies() throws Exception {
        byte[] upload = pattern(LARGE);
        for (HttpClient.Version version : new HttpClient.Version[] {HttpClient.Version.HTTP_1_1,
                HttpClient.Version.HTTP_2}) {
            HttpClient client = HttpClient.newBuilder().version(version).build();
            HttpResponse<byte[]> down = client.send(HttpRequest.newBuilder(URI.create(gateway.url("/files/large")))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(down.statusCode()).as(version.name()).isEqualTo(200);
            assertThat(down.body()).hasSize(LARGE);
            assertThat(checksum(down.body())).isEqualTo(checksum(upload));
            HttpResponse<String> up = client.send(HttpRequest.newBuilder(URI.create(gateway.url("/files/sum")))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(upload)).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(up.body()).as(version.name()).isEqualTo(LARGE + " " + checksum(upload));
        }
    }

    @Test
    void concurrentRequestsShareOneUpstreamConnectionAndNothingIsAdded() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HELIDON_PEERS.clear();
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            all.add(client.sendAsync(HttpRequest.newBuilder(URI.create(gateway.url("/files/who")))
                    .header("User-Agent", "agent-" + i).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < all.size(); i++) {
            HttpResponse<String> response = all.get(i).get(30, TimeUnit.SECONDS);
            assertThat(response.body()).isEqualTo("2.0 127.0.0.1:" + helidon.port() + " agent-" + i);
        }
        assertThat(HELIDON_PEERS).as("the upstream connections' ports").hasSize(1);
        HttpResponse<String> kept = client.send(HttpRequest.newBuilder(URI.create(gateway.url("/kept/who")))
                .header("User-Agent", "k").build(), HttpResponse.BodyHandlers.ofString());
        URI base = URI.create(gateway.url("/"));
        assertThat(kept.body()).as("preserveHost makes the client's Host the :authority")
                .isEqualTo("2.0 " + base.getHost() + ":" + base.getPort() + " k");
    }

    @Test
    void anUpstreamThatSpeaksOnlyHttp11GetsA502() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(gateway.url("/old/x"))).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.body()).contains("\"error\"");
    }
}
