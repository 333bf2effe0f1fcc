package io.pylon.worker.proxy;

import io.pylon.gateway.model.Route;
import io.pylon.worker.routes.RouteTable;
import io.pylon.gateway.model.Upstream;
import io.pylon.worker.testing.TestUpstream;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The failover stage on its own, against real upstreams on loopback and real connection pools. */
class UpstreamDispatchTest {
    private static final ExchangeLabel LABEL = new ExchangeLabel("test", "GET", "/", null);
    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    private final UpstreamPools pools = new UpstreamPools(
            new UpstreamPool.PoolSettings(10, 10, Duration.ofSeconds(2), Duration.ofSeconds(2)),
            Duration.ofSeconds(30), Duration.ofSeconds(30));
    private final ProxyStats stats = new ProxyStats();
    private final UpstreamDispatch dispatch = new UpstreamDispatch(pools, new ResponseTimeouts(timer), stats);
    private final TestUpstream live = TestUpstream.echo("live");
    private final List<String> tried = new ArrayList<>();

    @AfterEach
    void stop() {
        live.close();
        pools.close();
        timer.shutdownNow();
    }

    private static Upstream upstream(int port) {
        return new Upstream("http", "127.0.0.1", port, "");
    }

    private static RouteTable.Entry entry(Upstream... upstreams) {
        Route route = new Route("r", "/", Set.of(), null, List.of(upstreams), false, Duration.ofSeconds(2),
                Duration.ofSeconds(5), null);
        return new RouteTable.Entry(route, new AtomicInteger());
    }

    private UpstreamDispatch.Result open(RouteTable.Entry entry, ClientRequestBody body) {
        return dispatch.open(entry, "POST", body, null, LABEL, (upstream, pool, timeout) -> {
            tried.add(upstream.origin());
            return new BasicClassicHttpRequest("GET", pool.target(), "/x");
        });
    }

    @Test
    void aRefusedUpstreamIsMarkedFailedAndTheNextOneAnswers() throws Exception {
        Upstream refused = upstream(TestUpstream.refusedPort());
        Upstream working = upstream(live.port());
        RouteTable.Entry entry = entry(refused, working);

        UpstreamDispatch.Result result = open(entry, null);

        assertThat(result).isInstanceOf(UpstreamDispatch.Opened.class);
        UpstreamExchange exchange = ((UpstreamDispatch.Opened) result).exchange();
        assertThat(exchange.response().getCode()).isEqualTo(200);
        assertThat(new String(exchange.body().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("live GET /x");
        exchange.complete();
        assertThat(tried).containsExactly(refused.origin(), working.origin());
        assertThat(pools.pool(refused).isHealthy()).isFalse();
        // the cursor moved on, and the failed upstream comes last whatever the cursor says
        assertThat(dispatch.order(entry)).containsExactly(working, refused);
        assertThat(dispatch.order(entry)).containsExactly(working, refused);
    }

    @Test
    void roundRobinFromTheRoutesCursorWhileAllAreHealthy() {
        Upstream a = upstream(live.port());
        Upstream b = new Upstream("http", "localhost", live.port(), "");
        RouteTable.Entry entry = entry(a, b);

        assertThat(dispatch.order(entry)).containsExactly(a, b);
        assertThat(dispatch.order(entry)).containsExactly(b, a);
        assertThat(dispatch.order(entry)).containsExactly(a, b);
    }

    @Test
    void whenEveryUpstreamRefusesTheClientIsToldBadGateway() {
        Upstream first = upstream(TestUpstream.refusedPort());
        Upstream second = upstream(TestUpstream.refusedPort());

        UpstreamDispatch.Result result = open(entry(first, second), null);

        assertThat(result).isEqualTo(new UpstreamDispatch.Failed(UpstreamFailure.UNREACHABLE));
        assertThat(tried).hasSize(2);
        assertThat(UpstreamFailure.UNREACHABLE.answer(stats)).isEqualTo(GatewayError.BAD_GATEWAY);
        assertThat(stats.describe()).containsEntry("badGateway", 1L);
    }

    @Test
    void noFailoverOnceTheClientsBodyIsBeingRead() throws Exception {
        Upstream refused = upstream(TestUpstream.refusedPort());
        Upstream working = upstream(live.port());
        ClientRequestBody body = new ClientRequestBody(new ByteArrayInputStream(new byte[]{1, 2, 3}));
        assertThat(body.read()).isEqualTo(1);

        UpstreamDispatch.Result result = open(entry(refused, working), body);

        assertThat(result).isEqualTo(new UpstreamDispatch.Failed(UpstreamFailure.UNREACHABLE));
        assertThat(tried).containsExactly(refused.origin());
    }
}
