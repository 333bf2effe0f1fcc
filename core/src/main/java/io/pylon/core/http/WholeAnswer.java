package io.pylon.core.http;

import org.jspecify.annotations.Nullable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A call with {@code java.net.http} that ends within its time, answer body included. A request's own timeout ends
 * once the answer's head arrives: a peer that then trickles its body (or stops mid-body without closing) would hold the
 * caller for as long as it likes. Here the request's timeout bounds the whole exchange; past it the exchange is
 * cancelled, which closes its connection. The body handlers here bound its size as well ({@link #bytesAtMost},
 * {@link #textAtMost}): a peer sending more than the caller takes fails the call as soon as it passes the bound, so
 * the caller holds at most the bound, not what the peer can send within the time.
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

    /** The answer's body was larger than the caller takes. */
    public static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        TooLargeException(long max) {
            super("the answer's body is larger than " + max + " bytes");
        }
    }

    /** The body's bytes, at most {@code max} of them; more (or a larger {@code Content-Length}) fails the call. */
    public static HttpResponse.BodyHandler<byte[]> bytesAtMost(int max) {
        return info -> new AtMost(max, info.headers().firstValueAsLong("Content-Length").orElse(-1));
    }

    /** The body as UTF-8 text, at most {@code max} bytes of it; more fails the call. */
    public static HttpResponse.BodyHandler<String> textAtMost(int max) {
        return info -> HttpResponse.BodySubscribers.mapping(bytesAtMost(max).apply(info),
                body -> new String(body, StandardCharsets.UTF_8));
    }

    /**
     * Collects a body until it passes the bound, then cancels the subscription and fails.
     * Threading: the client calls one method at a time (the Flow rules), so the fields need no lock.
     */
    private static final class AtMost implements HttpResponse.BodySubscriber<byte[]> {
        private final int max;
        private final long declared;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> body = new CompletableFuture<>();
        private Flow.@Nullable Subscription subscription;

        AtMost(int max, long declared) {
            this.max = max;
            this.declared = declared;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            if (declared > max) {
                refuse(subscription);
                return;
            }
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (body.isDone()) {
                return;
            }
            for (ByteBuffer item : items) {
                if (item.remaining() > max - bytes.size()) {
                    refuse(Objects.requireNonNull(subscription, "onNext before onSubscribe"));
                    return;
                }
                byte[] part = new byte[item.remaining()];
                item.get(part);
                bytes.writeBytes(part);
            }
        }

        private void refuse(Flow.Subscription from) {
            from.cancel();
            body.completeExceptionally(new TooLargeException(max));
        }

        @Override
        public void onError(Throwable throwable) {
            body.completeExceptionally(throwable);
        }

        @Override
        public void onComplete() {
            body.complete(bytes.toByteArray());
        }
    }
}
