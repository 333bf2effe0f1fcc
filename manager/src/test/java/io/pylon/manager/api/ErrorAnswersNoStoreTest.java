package io.pylon.manager.api;

import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every error answer of the management API carries {@code Cache-Control: no-store}, also those Helidon
 * writes before any route runs. Raw sockets, so that what is checked is what goes over the wire.
 */
class ErrorAnswersNoStoreTest {
    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?im)^content-length: *(\\d+)");
    private static Pod pod;
    private static String token;

    @BeforeAll
    static void start() {
        pod = ManagerClient.start("manager-nostore", Map.of());
        token = new ManagerClient(pod).token(ManagerClient.ADMIN, ManagerClient.ADMIN_PASSWORD);
    }

    @AfterAll
    static void stop() {
        pod.stop();
    }

    /** Helidon answers these before any route or filter runs; a method with a stray character was a 500 before. */
    @Test
    void malformedRequestsBeforeRouting() throws IOException {
        assertNoStoreError(exchange("GET  /apiops/users HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
        assertNoStoreError(exchange("G@T /apiops/users HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
        assertNoStoreError(exchange("GET /apiops/%zz HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
        assertNoStoreError(exchange("GET /apiops/users HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n"), 400);
        assertNoStoreError(exchange("GET /apiops/users HTTP/1.1\r\n\r\n"), 400);
        assertNoStoreError(exchange("POST /apiops/users HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n"), 400);
    }

    @Test
    void oversizedRequestLineBeforeRouting() throws IOException {
        assertNoStoreError(exchange("GET /apiops/users?x=" + "a".repeat(PodServer.MAX_REQUEST_LINE + 10)
                + " HTTP/1.1\r\nHost: x\r\n\r\n"), 414);
    }

    @Test
    void oversizedHeadersInTheFilterAndInHelidonsParser() throws IOException {
        assertNoStoreError(exchange(request("GET", "/apiops/users", "X-Big: " + "b".repeat(PodServer.MAX_HEADERS + 10))), 431);
        String answer = exchange(request("GET", "/apiops/users", "X-Big: " + "b".repeat(4 * PodServer.MAX_HEADERS + 10)));
        assertThat(statusOf(answer)).isIn(400, 431);
        assertNoStoreError(answer, statusOf(answer));
    }

    @Test
    void badRequestFromAnEndpoint() throws IOException {
        assertNoStoreError(exchange(request("POST", "/apiops/users", "Authorization: Bearer " + token,
                "Content-Type: application/json", "Content-Length: 9") + "{not json"), 400);
    }

    @Test
    void missingAndInvalidToken() throws IOException {
        assertNoStoreError(exchange(request("GET", "/apiops/users")), 401);
        assertNoStoreError(exchange(request("GET", "/apiops/users", "Authorization: Bearer pylon_at_nope")), 401);
    }

    @Test
    void unknownPathAndWrongMethod() throws IOException {
        assertNoStoreError(exchange(request("GET", "/apiops/no-such-thing", "Authorization: Bearer " + token)), 404);
        assertNoStoreError(exchange(request("DELETE", "/apiops/openapi.yaml", "Authorization: Bearer " + token)), 405);
    }

    @Test
    void bodyTooLargeAndWrongMediaType() throws IOException {
        int size = RequestBodies.MAX_BODY + 1;
        assertNoStoreError(exchange(request("POST", "/apiops/users", "Authorization: Bearer " + token,
                "Content-Type: application/json", "Content-Length: " + size) + "x".repeat(size)), 413);
        assertNoStoreError(exchange(request("POST", "/apiops/users", "Authorization: Bearer " + token,
                "Content-Type: text/plain", "Content-Length: 2") + "{}"), 415);
    }

    private static void assertNoStoreError(String answer, int status) {
        assertThat(statusOf(answer)).as(head(answer)).isEqualTo(status);
        String head = head(answer).toLowerCase(Locale.ROOT);
        assertThat(head).as("headers of the %d answer", status).contains("\r\ncache-control: no-store\r\n");
        assertThat(head).contains("content-type: application/json");
        assertThat(answer.substring(answer.indexOf("\r\n\r\n") + 4)).contains("\"error\"");
    }

    private static String request(String method, String path, String... headers) {
        StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        return request.append("\r\n").toString();
    }

    /** Writes the bytes, reads one answer: its head, then as many body bytes as its Content-Length says. */
    private static String exchange(String request) throws IOException {
        try (Socket socket = new Socket(pod.identity().podIp(), pod.port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (SocketException e) {
                // the server may answer and close before it has read all of an oversized request
            }
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            try {
                readAnswer(in, answer);
            } catch (SocketException e) {
                // a reset after the answer (the server closed with request bytes unread): what was read is the answer
            }
            return answer.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static void readAnswer(InputStream in, ByteArrayOutputStream answer) throws IOException {
        int headEnd = -1;
        int length = 0;
        for (int c; (c = in.read()) != -1; ) {
            answer.write(c);
            if (headEnd < 0 && c == '\n') {
                String text = answer.toString(StandardCharsets.ISO_8859_1);
                if (text.endsWith("\r\n\r\n")) {
                    headEnd = text.length();
                    Matcher m = CONTENT_LENGTH.matcher(text);
                    length = m.find() ? Integer.parseInt(m.group(1)) : 0;
                }
            }
            if (headEnd >= 0 && answer.size() >= headEnd + length) {
                return;
            }
        }
    }

    private static int statusOf(String answer) {
        assertThat(answer).as("an HTTP answer").startsWith("HTTP/1.1 ");
        return Integer.parseInt(answer.substring(9, 12));
    }

    private static String head(String answer) {
        int end = answer.indexOf("\r\n\r\n");
        return end < 0 ? answer : answer.substring(0, end + 2);
    }
}
