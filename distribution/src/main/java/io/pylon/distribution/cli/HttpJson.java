package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.pylon.core.http.WholeAnswer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * The CLI's HTTP calls and its JSON mapper. Calls go through {@link HttpURLConnection}: for {@code http://} it loads a
 * fraction of the classes of the JDK's {@link HttpClient}, which also sets up TLS (the trust store) when it is built,
 * together about a tenth of a second of a CLI command's start-up (BENCHMARKS.md, "CLI"). {@code PATCH}, which
 * {@link HttpURLConnection} cannot send, goes through the JDK's client, built at its first use.
 *
 * <p>Thread-safe: each call has its own connection object (the JDK pools the sockets), the mapper is thread-safe, and
 * {@code pods} and {@code top} send their calls from several threads ({@link CallThreads}).
 */
public final class HttpJson {
    public static final ObjectMapper MAPPER = new ObjectMapper();
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private static final class PatchClient {
        static final HttpClient INSTANCE = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();
    }

    private HttpJson() {
    }

    /**
     * Starts the mapper's first use on a thread of its own: Jackson's static state (some 190 classes) and the JDK's
     * locale data behind its date format take about 50 ms to initialise, which then overlaps picocli building the
     * command line on another core instead of following it (BENCHMARKS.md, "CLI"). A command that reaches the
     * mapper first waits for that initialisation, as for any class being initialised.
     */
    public static void warmUpInBackground() {
        Thread.ofPlatform().daemon().name("pylon-json-warm-up").start(() -> {
            try {
                MAPPER.readTree("{\"warm\":[1,\"up\"]}");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /** A response whose body was read as JSON (a missing node when it was empty or not JSON). */
    public record Answer(int status, JsonNode body) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }

        /** The {@code error_description} of an error body, else a generic line with the status. */
        public String description() {
            JsonNode text = body.path("error_description");
            return text.isTextual() ? text.asText() : "HTTP " + status;
        }
    }

    /** An answer whose body is read as it comes; the caller closes it. {@code contentLength} -1 when not given. */
    public record Streamed(int status, long contentLength, InputStream body) {
    }

    public static Answer send(HttpCall call) {
        if ("PATCH".equals(call.method())) {
            return patch(call);
        }
        Streamed streamed = stream(call);
        try (InputStream in = streamed.body()) {
            return new Answer(streamed.status(), parse(in.readAllBytes()));
        } catch (IOException e) {
            throw failure(call, e);
        }
    }

    public static Streamed stream(HttpCall call) {
        try {
            HttpURLConnection connection = (HttpURLConnection) call.uri().toURL().openConnection(Proxy.NO_PROXY);
            connection.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
            connection.setReadTimeout((int) call.timeout().toMillis());
            connection.setInstanceFollowRedirects(false);
            connection.setUseCaches(false);
            connection.setRequestMethod(call.method());
            call.headers().forEach(connection::setRequestProperty);
            if (call.body() != null) {
                connection.setDoOutput(true);
                connection.setFixedLengthStreamingMode(call.body().length);
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(call.body());
                }
            }
            int status = connection.getResponseCode();
            InputStream body = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            return new Streamed(status, connection.getContentLengthLong(), body == null ? InputStream.nullInputStream() : body);
        } catch (IOException e) {
            throw failure(call, e);
        }
    }

    private static Answer patch(HttpCall call) {
        HttpRequest.Builder request = HttpRequest.newBuilder(call.uri()).timeout(call.timeout())
                .method(call.method(), call.body() == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(call.body()));
        call.headers().forEach(request::header);
        try {
            HttpResponse<byte[]> response = WholeAnswer.send(PatchClient.INSTANCE, request.build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(response.statusCode(), parse(response.body()));
        } catch (IOException e) {
            throw failure(call, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("Interrupted while calling " + where(call.uri()) + ".");
        }
    }

    static JsonNode parse(byte[] body) {
        if (body == null || body.length == 0) {
            return MissingNode.getInstance();
        }
        try {
            return MAPPER.readTree(body);
        } catch (IOException e) {
            return MissingNode.getInstance();
        }
    }

    private static CliException failure(HttpCall call, IOException e) {
        if (e instanceof SocketTimeoutException || e instanceof HttpTimeoutException) {
            return CliException.failed(where(call.uri()) + " did not answer in time.");
        }
        if (e instanceof ConnectException) {
            return CliException.failed("Cannot connect to " + where(call.uri()) + " (connection refused or unreachable).");
        }
        return CliException.failed("The call to " + where(call.uri()) + " failed (" + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + Text.printable(e.getMessage())) + ").");
    }

    /** {@code http://host:port}: enough to say where, without a query that might carry anything. */
    static String where(URI uri) {
        return uri.getScheme() + "://" + uri.getRawAuthority();
    }
}
