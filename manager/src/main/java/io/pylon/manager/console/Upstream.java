package io.pylon.manager.console;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webclient.api.HttpClientRequest;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.WebClient;
import org.jspecify.annotations.Nullable;

import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Outbound calls (GETs, and the PUT/DELETE/POST of diagnostics changes) from the Manager to the modules of an environment, with timeouts, turning a failed connection into
 * a {@link ConsoleException} that says which module did not answer (never the environment ID).
 */
final class Upstream {
    /**
     * Built on a thread of its own: the client's default TLS context reads the JDK's trust store, about 80 ms that
     * were a tenth of the Manager's start (BENCHMARKS.md, "Start-up and memory"). The first call waits for it.
     */
    private final CompletableFuture<WebClient> client;

    Upstream(Duration connectTimeout) {
        this.client = CompletableFuture.supplyAsync(() -> WebClient.builder()
                .connectTimeout(connectTimeout)
                .followRedirects(false)
                .keepAlive(true)
                .build(), task -> Thread.ofVirtual().name("pylon-console-client").start(task));
    }

    /**
     * Sends the GET and returns the open response; the caller closes it. {@code what} names the callee for messages
     * ("the worker of environment dev").
     */
    HttpClientResponse get(String url, Map<String, String> query, @Nullable String authorization, String accept,
                           Duration readTimeout, String what) {
        return send("GET", url, query, authorization, accept, readTimeout, what);
    }

    /** Like {@link #get} with another method: the console's changes (a log level, a recording). */
    HttpClientResponse send(String method, String url, Map<String, String> query, @Nullable String authorization, @Nullable String accept,
                            Duration readTimeout, String what) {
        HttpClientRequest request = client.join().method(io.helidon.http.Method.create(method)).uri(url).readTimeout(readTimeout);
        query.forEach(request::queryParam);
        if (authorization != null) {
            request.header(HeaderValues.create(HeaderNames.AUTHORIZATION, authorization));
        }
        if (accept != null) {
            request.header(HeaderValues.create(HeaderNames.ACCEPT, accept));
        }
        try {
            return request.request();
        } catch (RuntimeException e) {
            throw failure(e, what, url);
        }
    }

    static ConsoleException failure(Throwable e, String what, String url) {
        if (isTimeout(e)) {
            return new ConsoleException(Status.GATEWAY_TIMEOUT_504, "module_timeout",
                    capitalized(what) + " at " + url + " did not answer in time.");
        }
        return new ConsoleException(Status.BAD_GATEWAY_502, "module_unreachable",
                capitalized(what) + " at " + url + " is unreachable (" + rootMessage(e) + ").");
    }

    static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException || t instanceof HttpTimeoutException
                    || t instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName() : message;
    }

    private static String capitalized(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
