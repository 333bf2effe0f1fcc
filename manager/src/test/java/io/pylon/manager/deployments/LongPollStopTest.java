package io.pylon.manager.deployments;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerClient;
import io.pylon.manager.portal.KeyPollEndpoint;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stopping Manager ends the Workers' parked long-polls at once, and answers new ones at once, with 503 stopping:
 * its stop is not held for the rest of their waits (up to 60 s, against a grace of 20 s here), and the Workers poll
 * another replica.
 */
class LongPollStopTest {
    @Test
    void stoppingEndsParkedPollsAndAnswersNewOnesAtOnce() throws Exception {
        Pod pod = ManagerClient.start("manager-poll-stop", Map.of("pylon.shutdown.grace", "20s",
                "pylon.shutdown.delay", "2s",
                "pylon.manager.bootstrap.environment-urls", "worker=http://127.0.0.1:1,cache=http://127.0.0.1:2"));
        String base = TestPods.baseUrl(pod);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            String bundle = poll(base, GatewayPollEndpoint.PATH, "0s", null).headers().firstValue("ETag").orElseThrow();
            String keys = poll(base, KeyPollEndpoint.PATH, "0s", null).headers().firstValue("ETag").orElseThrow();
            CompletableFuture<HttpResponse<String>> parkedBundle = CompletableFuture.supplyAsync(
                    () -> poll(base, GatewayPollEndpoint.PATH, "60s", bundle), threads);
            CompletableFuture<HttpResponse<String>> parkedKeys = CompletableFuture.supplyAsync(
                    () -> poll(base, KeyPollEndpoint.PATH, "60s", keys), threads);
            Thread.sleep(500);
            assertThat(parkedBundle).as("parked until a change or its wait").isNotDone();
            assertThat(parkedKeys).isNotDone();

            long start = System.nanoTime();
            CompletableFuture<Void> stopped = CompletableFuture.runAsync(pod::stop, threads);
            for (CompletableFuture<HttpResponse<String>> parked : java.util.List.of(parkedBundle, parkedKeys)) {
                HttpResponse<String> answer = parked.get(3, TimeUnit.SECONDS);
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
                assertThat(answer.body()).contains("\"error\":\"stopping\"");
                assertThat(answer.headers().firstValue("Retry-After")).contains("1");
            }
            // still listening during the shutdown delay: a new poll is not parked
            long asked = System.nanoTime();
            HttpResponse<String> late = poll(base, GatewayPollEndpoint.PATH, "60s", bundle);
            assertThat(late.statusCode()).as(late.body()).isEqualTo(503);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - asked)).isLessThan(1_000);

            stopped.get(15, TimeUnit.SECONDS);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("the stop: delay, then quick")
                    .isLessThan(8_000);
        } finally {
            pod.stop();
        }
    }

    private static HttpResponse<String> poll(String base, String path, String wait, String etag) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path + "?wait=" + wait))
                .header("X-Pylon-Environment-Id", TestPods.ENVIRONMENT_ID).header("X-Pylon-Pod", "probe");
        if (etag != null) {
            request.header("If-None-Match", etag);
        }
        return TestPods.send(request.GET().build());
    }
}
