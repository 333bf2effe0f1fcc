package io.pylon.worker.proxy;

import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An upstream pool closed under its requests (the pod stops while a request outlives the stop's grace, one whose
 * client left, say): a request that asks it for a connection then ends as a full pool's waits do (503), not with
 * HttpClient's IllegalStateException (an error logged with its stack trace). One already waiting when the pool closes
 * waits out its lease timeout, and ends the same way.
 */
class ClosedPoolTest {
    private static final ExchangeLabel LABEL = new ExchangeLabel("test", "GET", "/", null);
    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    private final ResponseTimeouts timeouts = new ResponseTimeouts(timer);

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void aRequestAskingAClosedPoolGetsAFullPoolsAnswer() {
        PoolingHttpClientConnectionManager manager = PoolingHttpClientConnectionManagerBuilder.create().build();
        HttpRoute route = new HttpRoute(new HttpHost("127.0.0.1", 9));
        manager.close();
        IOException failure = open(manager, route);
        assertThat(failure).isInstanceOf(UpstreamExchange.PoolExhaustedException.class).hasMessageContaining("closed");
        assertThat(UpstreamFailure.of(failure)).isEqualTo(UpstreamFailure.POOL_EXHAUSTED);
    }

    private IOException open(PoolingHttpClientConnectionManager manager, HttpRoute route) {
        try {
            UpstreamExchange.open(manager, route, new BasicClassicHttpRequest("GET", "/"), Timeout.ofSeconds(1),
                    timeouts.create(Duration.ofSeconds(5), LABEL, ""), Timeout.ofSeconds(30));
            throw new AssertionError("leased from a closed pool");
        } catch (IOException e) {
            return e;
        }
    }
}
