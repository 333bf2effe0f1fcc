package io.pylon.core.broadcast;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Calls other pods of the module. The JDK client rather than Helidon's: its request timeout covers everything up
 * to the response headers (Helidon's is a per-read socket timeout), and its streamed body applies back-pressure, so
 * an answer that is not yet read stays in the socket, not on the heap.
 */
public final class PeerClient implements AutoCloseable {
    private final ExecutorService executor;
    private final HttpClient client;

    public PeerClient(Duration connectTimeout) {
        this.executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("pylon-peer-client-", 0).factory());
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(executor)
                .build();
    }

    /**
     * A GET whose body is left unread for the caller, who must close it.
     *
     * @param timeout until the response headers arrive
     */
    public HttpResponse<InputStream> get(URI uri, String authorization, String accept, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (accept != null) {
            request.header("Accept", accept);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    @Override
    public void close() {
        client.shutdownNow();
        executor.shutdownNow();
    }
}
