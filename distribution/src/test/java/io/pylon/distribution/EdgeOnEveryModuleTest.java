package io.pylon.distribution;

import io.pylon.core.testing.LingeringClients;
import io.pylon.core.testing.RawWire;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP edge on a real pod of every module found by ServiceLoader (the five of the platform): no smuggled second
 * request, HTTP/1.0 answered, 431 and one Authorization header, an answer given before the body is read reaching a
 * client still sending it, whatever routes the module adds.
 */
class EdgeOnEveryModuleTest extends OnePodPerModule {
    private static final String SMUGGLED = "GET /platform/management/version HTTP/1.1\r\nHost: x\r\n\r\n";

    @Override
    String podSuffix() {
        return "edge";
    }

    @ParameterizedTest
    @MethodSource("modules")
    void noSmuggledRequestAfterAnyRefusal(String module) throws IOException {
        for (String path : List.of("/nothing-here", "/platform/management/health", "/platform/diagnostics/jvm",
                "/apiops/auth/token", "/platform/management/health/live")) {
            RawWire.Exchange exchange = send(module, "POST " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                    + "Content-Type: application/x-unknown\r\nContent-Length: " + SMUGGLED.length() + "\r\n\r\n" + SMUGGLED);

            assertThat(exchange.responses()).as(module + " " + path).hasSize(1);
            assertThat(exchange.only().status()).as(module + " " + path).isBetween(400, 499);
            assertThat(exchange.closed()).as(module + " " + path + " closed").isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("modules")
    void http10IsAnswered(String module) throws IOException {
        RawWire.Exchange plain = send(module, "GET /platform/management/health HTTP/1.0\r\n\r\n");
        assertThat(plain.only().status()).as(module).isEqualTo(200);
        assertThat(plain.closed()).as("an HTTP/1.0 request without keep-alive closes").isTrue();

        // asked for, keep-alive is kept as nginx keeps it: a sized answer that says so, and the connection stays
        RawWire.Exchange kept = send(module, "HEAD /platform/management/version HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
        assertThat(kept.only().status()).as(module).isEqualTo(200);
        assertThat(kept.only().header("connection")).as(module).isEqualToIgnoringCase("keep-alive");
        assertThat(kept.closed()).as("kept alive").isFalse();
    }

    @ParameterizedTest
    @MethodSource("modules")
    void hugeHeadersAre431AndTwoAuthorizationHeaders400(String module) throws IOException {
        RawWire.Exchange big = send(module, "GET /platform/management/health HTTP/1.1\r\nHost: x\r\nX-Big: "
                + "b".repeat(200 * 1024) + "\r\n\r\n");
        RawWire.Exchange twice = send(module, "GET /platform/diagnostics/jvm HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: " + TestPods.ENVIRONMENT_ID + "\r\nAuthorization: x\r\n\r\n");

        assertThat(big.only().status()).isEqualTo(431);
        assertThat(twice.only().status()).isEqualTo(400);
        assertThat(twice.only().body()).contains("Authorization headers");
    }

    /** Lingering close on every pod: Java's HttpClient, still writing 2 MB, reads the refusal and not a reset. */
    @ParameterizedTest
    @MethodSource("modules")
    void anAnswerBeforeTheBodyIsReadReachesAClientStillSendingIt(String module) {
        for (String path : List.of("/nothing-here", "/platform/management/health", "/platform/diagnostics/jvm")) {
            for (int i = 0; i < 5; i++) {
                java.net.http.HttpResponse<String> answer = LingeringClients.javaPost(
                        java.net.URI.create(TestPods.baseUrl(pods.get(module)) + path), 2_000_000);

                assertThat(answer.statusCode()).as(module + " " + path).isBetween(400, 499);
                assertThat(answer.body()).as(module + " " + path).startsWith("{");
            }
        }
    }

    private RawWire.Exchange send(String module, String request) throws IOException {
        return RawWire.send("127.0.0.1", pods.get(module).port(), request);
    }
}
