package io.pylon.worker.routes;

import io.pylon.gateway.model.Route;
import io.pylon.gateway.model.Upstream;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
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
    void routesShareTheirEqualPartsAndKeepTheirOwn() {
        Route a = route("a", "/a", Set.of(), null);
        Route b = route("b", "/b", Set.of("GET"), null);
        Route c = new Route("c", "/c", Set.of(), null, List.of(Upstream.parse("http://127.0.0.1:2")), true,
                Duration.ofSeconds(3), Duration.ofSeconds(1), null);
        RouteTable table = new RouteTable(List.of(a, b, c));
        assertThat(table.routes()).containsExactlyInAnyOrder(a, b, c); // equal values, whatever instances they hold
        Route sharedA = route(table, "a");
        Route sharedB = route(table, "b");
        Route sharedC = route(table, "c");
        assertThat(sharedB.upstreams()).isSameAs(sharedA.upstreams());
        assertThat(sharedB.policies()).isSameAs(sharedA.policies());
        assertThat(sharedB.forwarding()).isSameAs(sharedA.forwarding());
        assertThat(sharedC.responseTimeout()).isSameAs(sharedA.responseTimeout());
        assertThat(sharedC.upstreams()).isNotEqualTo(sharedA.upstreams());
        assertThat(sharedC.connectTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(sharedB.methods()).containsExactly("GET");
    }

    private static Route route(RouteTable table, String name) {
        return table.routes().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void prefixMatchesOnlyAtASegmentBoundary() {
        RouteTable table = new RouteTable(List.of(route("api", "/api", Set.of(), null)));
        assertThat(matched(table, "GET", null, "/api")).isEqualTo("api");
        assertThat(matched(table, "GET", null, "/api/")).isEqualTo("api");
        assertThat(table.match("GET", null, "/apix")).isInstanceOf(RouteTable.NoRoute.class);
        assertThat(table.match("GET", null, "/ap")).isInstanceOf(RouteTable.NoRoute.class);
        assertThat(table.match("GET", null, "/")).isInstanceOf(RouteTable.NoRoute.class);
    }

    @Test
    void wrongMethodIsMethodNotAllowedWithTheAllowedOnes() {
        RouteTable table = new RouteTable(List.of(route("read", "/a", Set.of("GET", "HEAD"), null)));
        assertThat(table.match("DELETE", null, "/a/1"))
                .isEqualTo(new RouteTable.MethodNotAllowed(new LinkedHashSet<>(List.of("GET", "HEAD"))));
    }

    @Test
    void aLongerPrefixThatRefusesTheMethodGivesWayToAShorterOne() {
        RouteTable table = new RouteTable(List.of(
                route("any", "/a", Set.of(), null),
                route("read-only", "/a/b", Set.of("GET"), null)));
        assertThat(matched(table, "GET", null, "/a/b/c")).isEqualTo("read-only");
        assertThat(matched(table, "POST", null, "/a/b/c")).isEqualTo("any");
    }

    @Test
    void methodNotAllowedListsTheMethodsOfEveryMatchingPrefixLongestFirst() {
        RouteTable table = new RouteTable(List.of(
                route("root", "/", Set.of("OPTIONS"), null),
                route("a", "/a", Set.of("PUT", "GET"), null),
                route("ab", "/a/b", Set.of("POST"), null),
                route("ab-get", "/a/b", Set.of("GET"), null),
                route("other-host", "/a/b", Set.of("DELETE"), "other.example")));
        assertThat(table.match("PATCH", null, "/a/b"))
                .isEqualTo(new RouteTable.MethodNotAllowed(new LinkedHashSet<>(List.of("POST", "GET", "PUT",
                        "OPTIONS"))));
        assertThat(table.match("PATCH", "other.example", "/a/b/x"))
                .isEqualTo(new RouteTable.MethodNotAllowed(new LinkedHashSet<>(List.of("DELETE", "POST", "GET",
                        "PUT", "OPTIONS"))));
    }

    @Test
    void aHostBoundRouteThatRefusesTheMethodGivesWayToTheAnyHostRouteOfTheSamePrefix() {
        RouteTable table = new RouteTable(List.of(
                route("any-host", "/p", Set.of(), null),
                route("shop-get", "/p", Set.of("GET"), "shop.example")));
        assertThat(matched(table, "GET", "shop.example", "/p")).isEqualTo("shop-get");
        assertThat(matched(table, "POST", "shop.example", "/p")).isEqualTo("any-host");
        assertThat(matched(table, "GET", "other.example", "/p")).isEqualTo("any-host");
        assertThat(matched(table, "GET", null, "/p")).isEqualTo("any-host");
    }

    @Test
    void hostsCompareWithoutCaseAsBefore() {
        RouteTable table = new RouteTable(List.of(
                route("shop", "/p", Set.of(), "shop.example"),
                route("kelvin", "/k", Set.of(), "k.example")));
        assertThat(matched(table, "GET", "SHOP.Example", "/p")).isEqualTo("shop");
        assertThat(table.match("GET", "shop.example.org", "/p")).isInstanceOf(RouteTable.NoRoute.class);
        // String.equalsIgnoreCase takes the Kelvin sign for a 'k': the index must not drop what it matched
        assertThat(matched(table, "GET", "\u212a.example", "/k")).isEqualTo("kelvin");
    }

    @Test
    void equalRoutesGoToTheFirstOfTheBundle() {
        RouteTable table = new RouteTable(List.of(
                route("first", "/same", Set.of("GET"), "h.example"),
                route("second", "/same", Set.of("GET"), "h.example"),
                route("third", "/same", Set.of(), null),
                route("fourth", "/same", Set.of(), null)));
        assertThat(matched(table, "GET", "h.example", "/same/x")).isEqualTo("first");
        assertThat(matched(table, "GET", null, "/same/x")).isEqualTo("third");
    }

    @Test
    void rootRouteTakesWhatNothingElseDoes() {
        RouteTable table = new RouteTable(List.of(
                route("root", "/", Set.of(), null),
                route("deep", "/a/b/c/d", Set.of(), null)));
        assertThat(matched(table, "GET", null, "/")).isEqualTo("root");
        assertThat(matched(table, "GET", null, "/a/b/c")).isEqualTo("root");
        assertThat(matched(table, "GET", null, "/a/b/c/d")).isEqualTo("deep");
        assertThat(matched(table, "GET", null, "/a/b/c/d/")).isEqualTo("deep");
        assertThat(matched(table, "GET", null, "/a/b/c/de")).isEqualTo("root");
        assertThat(matched(table, "GET", null, "/a/b/c/d//e")).isEqualTo("deep");
    }

    @Test
    void prefixesThatShareTheirStartAreTold() {
        RouteTable table = new RouteTable(List.of(
                route("v1", "/api/v1", Set.of(), null),
                route("v10", "/api/v10", Set.of(), null),
                route("v1-users", "/api/v1/users", Set.of(), null)));
        assertThat(matched(table, "GET", null, "/api/v1")).isEqualTo("v1");
        assertThat(matched(table, "GET", null, "/api/v10/x")).isEqualTo("v10");
        assertThat(matched(table, "GET", null, "/api/v1/users/9")).isEqualTo("v1-users");
        assertThat(matched(table, "GET", null, "/api/v1/usersx")).isEqualTo("v1");
        assertThat(table.match("GET", null, "/api/v100")).isInstanceOf(RouteTable.NoRoute.class);
        assertThat(table.match("GET", null, "/api")).isInstanceOf(RouteTable.NoRoute.class);
    }

    @Test
    void aThousandRoutesEachFindTheirOwn() {
        List<Route> routes = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            routes.add(route("p" + i, "/svc/p" + i, Set.of(), null));
        }
        RouteTable table = new RouteTable(routes);
        for (int i = 0; i < 1000; i++) {
            assertThat(matched(table, "GET", null, "/svc/p" + i + "/items/1")).isEqualTo("p" + i);
        }
        assertThat(table.match("GET", null, "/svc/p1000")).isInstanceOf(RouteTable.NoRoute.class);
    }

    /** Random tables and requests: the index answers exactly what a scan of every route in order answers. */
    @Test
    void indexAnswersWhatALinearScanAnswers() {
        Random random = new Random(20_251_125L);
        String[] segments = {"a", "b", "ab", "api", "v1", "v10", "x"};
        String[] hosts = {null, "one.example", "two.example"};
        String[] methodSets = {"", "GET", "POST", "GET,HEAD", "DELETE"};
        String[] requestMethods = {"GET", "POST", "HEAD", "DELETE", "PUT"};
        for (int round = 0; round < 200; round++) {
            List<Route> routes = new ArrayList<>();
            int count = 1 + random.nextInt(12);
            for (int i = 0; i < count; i++) {
                String prefix = random.nextInt(8) == 0 ? "/" : randomPath(random, segments, 1 + random.nextInt(3));
                String methods = methodSets[random.nextInt(methodSets.length)];
                routes.add(route("r" + i, prefix, methods.isEmpty() ? Set.of() : new LinkedHashSet<>(
                        List.of(methods.split(","))), hosts[random.nextInt(hosts.length)]));
            }
            RouteTable table = new RouteTable(routes);
            for (int request = 0; request < 50; request++) {
                String path = random.nextInt(10) == 0 ? "/" : randomPath(random, segments, 1 + random.nextInt(4))
                        + (random.nextBoolean() ? "/" : "");
                String host = hosts[random.nextInt(hosts.length)];
                if (host != null && random.nextBoolean()) {
                    host = host.toUpperCase(java.util.Locale.ROOT);
                }
                String method = requestMethods[random.nextInt(requestMethods.length)];
                assertThat(describe(table.match(method, host, path)))
                        .as("%s %s host %s with %s", method, path, host, routes)
                        .isEqualTo(describe(scan(routes, method, host, path)));
            }
        }
    }

    private static String randomPath(Random random, String[] segments, int depth) {
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            path.append('/').append(segments[random.nextInt(segments.length)]);
        }
        return path.toString();
    }

    private static String describe(RouteTable.Match match) {
        return switch (match) {
            case RouteTable.Found found -> "found " + found.entry().route().name();
            case RouteTable.NoRoute ignored -> "no route";
            case RouteTable.MethodNotAllowed refused -> "405 " + List.copyOf(refused.allowed());
        };
    }

    /** The matching rule written as plainly as it can be: sort, then the first route that matches all three. */
    private static RouteTable.Match scan(List<Route> routes, String method, String host, String path) {
        List<Route> sorted = routes.stream().sorted(Comparator
                .comparingInt((Route r) -> r.pathPrefix().equals("/") ? 0 : r.pathPrefix().length()).reversed()
                .thenComparing(r -> r.host() == null)
                .thenComparing(r -> r.methods().isEmpty())).toList();
        Set<String> allowed = null;
        for (Route route : sorted) {
            if (!route.matchesPath(path) || !route.matchesHost(host)) {
                continue;
            }
            if (route.allows(method)) {
                return new RouteTable.Found(new RouteTable.Entry(route, new java.util.concurrent.atomic.AtomicInteger()));
            }
            if (allowed == null) {
                allowed = new LinkedHashSet<>();
            }
            allowed.addAll(route.methods());
        }
        return allowed == null ? new RouteTable.NoRoute() : new RouteTable.MethodNotAllowed(allowed);
    }
}
