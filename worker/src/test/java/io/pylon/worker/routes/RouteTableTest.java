package io.pylon.worker.routes;

import io.pylon.gateway.model.Route;
import io.pylon.gateway.model.Upstream;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class RouteTableTest {

    private static Route route(String name, String prefix, Set<String> methods, String host) {
        return new Route(name, prefix, methods, host, List.of(Upstream.parse("http://127.0.0.1:1")), false,
                Duration.ofSeconds(1), Duration.ofSeconds(1), null);
    }

    private static String matched(RouteTable table, String method, String host, String path) {
        return table.match(method, host, path) instanceof RouteTable.Found found ? found.entry().route().name() : null;
    }

    @Test
    void mostSpecificRouteWins() {
        RouteTable table = new RouteTable(List.of(
                route("root", "/", Set.of(), null),
                route("api", "/api", Set.of(), null),
                route("orders", "/api/orders", Set.of(), null),
                route("orders-host", "/api/orders", Set.of(), "shop.example"),
                route("orders-post", "/api/orders", Set.of("POST"), null)));
        assertThat(matched(table, "GET", null, "/api/orders/7")).isEqualTo("orders");
        assertThat(matched(table, "POST", null, "/api/orders")).isEqualTo("orders-post");
        assertThat(matched(table, "GET", "shop.example", "/api/orders")).isEqualTo("orders-host");
        assertThat(matched(table, "GET", null, "/api/ordersx")).isEqualTo("api");
        assertThat(matched(table, "GET", null, "/other")).isEqualTo("root");
    }

    @Test
    void prefixMatchesOnlyAtASegmentBoundary() {
        RouteTable table = new RouteTable(List.of(route("api", "/api", Set.of(), null)));
        assertThat(matched(table, "GET", null, "/api")).isEqualTo("api");
        assertThat(matched(table, "GET", null, "/api/")).isEqualTo("api");
        assertThat(table.match("GET", null, "/apix")).isInstanceOf(RouteTable.NoRoute.class);
    }

    @Test
    void wrongMethodIsMethodNotAllowedWithTheAllowedOnes() {
        RouteTable table = new RouteTable(List.of(route("read", "/a", Set.of("GET", "HEAD"), null)));
        assertThat(table.match("DELETE", null, "/a/1"))
                .isEqualTo(new RouteTable.MethodNotAllowed(new java.util.LinkedHashSet<>(List.of("GET", "HEAD"))));
    }
}
