package io.pylon.distribution.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * The CLI's one HTTP client (the JDK's: no start-up cost of a second stack) and its JSON mapper. Thread-safe: the
 * JDK client and Jackson's mapper are, and {@code pods} and {@code top} send their calls from several virtual threads.
 */
public final class HttpJson {
    public static final ObjectMapper MAPPER = new ObjectMapper();

    /** Built at the first call, not with the mapper: it sets up TLS, which commands that read only the config skip. */
    private static final class Client {
        static final HttpClient INSTANCE = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    private HttpJson() {
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

    public static Answer send(HttpRequest request) {
        HttpResponse<byte[]> response = exchange(request, HttpResponse.BodyHandlers.ofByteArray());
        return new Answer(response.statusCode(), parse(response.body()));
    }

    public static HttpResponse<InputStream> stream(HttpRequest request) {
        return exchange(request, HttpResponse.BodyHandlers.ofInputStream());
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

    private static <T> HttpResponse<T> exchange(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return Client.INSTANCE.send(request, handler);
        } catch (HttpTimeoutException e) {
            throw CliException.failed(where(request.uri()) + " did not answer in time.");
        } catch (ConnectException e) {
            throw CliException.failed("Cannot connect to " + where(request.uri()) + " (connection refused or unreachable).");
        } catch (IOException e) {
            throw CliException.failed("The call to " + where(request.uri()) + " failed (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + Text.printable(e.getMessage())) + ").");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("Interrupted while calling " + where(request.uri()) + ".");
        }
    }

    /** {@code http://host:port}: enough to say where, without a query that might carry anything. */
    static String where(URI uri) {
        return uri.getScheme() + "://" + uri.getRawAuthority();
    }
}
