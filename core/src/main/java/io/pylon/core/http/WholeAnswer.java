package io.pylon.core.http;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A call with {@code java.net.http} that ends within its time, answer body included. A request's own timeout ends
 * once the answer's head arrives: a peer that then trickles its body (or stops mid-body without closing) would hold the
 * caller for as long as it likes. Here the request's timeout bounds the whole exchange; past it the exchange is
 * cancelled, which closes its connection.
 */
public final class WholeAnswer {
    private WholeAnswer() {
    }

    /**
     * Sends {@code request} and returns the answer with its body read by {@code body}, or throws
     * {@link HttpTimeoutException} when it did not all arrive within the request's timeout, which is required. Other
     * failures are thrown as the client reports them ({@code ConnectException} and {@code HttpConnectTimeoutException}
     * among them), unwrapped.
     */
    public static <T> HttpResponse<T> send(HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> body)
            throws IOException, InterruptedException {
        Duration within = request.timeout().orElseThrow(
                () -> new IllegalArgumentException("a request without a timeout cannot be bounded: " + request.uri()));
        CompletableFuture<HttpResponse<T>> answer = client.sendAsync(request, body);
        try {
            return answer.get(within.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new HttpTimeoutException("no whole answer within " + within.toMillis() + " ms");
        } catch (InterruptedException e) {
            answer.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(cause);
        }
    }
}
