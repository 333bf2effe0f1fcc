package io.pylon.gateway.model;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KnownProxiesTest {
    private final ProxyParser parser = new ProxyParser("platform", Duration.ofSeconds(2), Duration.ofSeconds(30));
    private final KnownProxies known = new KnownProxies();

    private List<Route> parse(String json) throws InvalidProxyException {
        return parser.parse(json.getBytes(StandardCharsets.UTF_8), true, known).routes();
    }

    private static String bundle(long version, String... proxies) {
        return "{\"version\":" + version + ",\"proxies\":[" + String.join(",", proxies) + "]}";
    }

    private static String proxy(String name, String prefix) {
        return "{\"name\":\"" + name + "\",\"pathPrefix\":\"" + prefix + "\",\"upstreams\":[\"http://127.0.0.1:9\"]}";
    }

    @Test
    void anUnchangedProxyIsTakenAsItWasAndAChangedOneParsedAgain() throws Exception {
        List<Route> first = parse(bundle(1, proxy("a", "/a"), proxy("b", "/b")));
        known.applied();
        List<Route> second = parse(bundle(2, proxy("a", "/a"), proxy("b", "/b2")));
        known.applied();
        assertThat(second.get(0)).isSameAs(first.get(0));
        assertThat(second.get(1)).isNotSameAs(first.get(1));
        assertThat(second.get(1).pathPrefix()).isEqualTo("/b2");
        assertThat(known.size()).isEqualTo(2);
        // the same fields in another order: parsed again (the canonical bundle keeps one order), to the same route
        List<Route> third = parse(bundle(3, "{\"upstreams\":[\"http://127.0.0.1:9\"],\"pathPrefix\":\"/a\",\"name\":\"a\"}"));
        assertThat(third.get(0)).isEqualTo(first.get(0));
    }

    @Test
    void aRefusedBundleLeavesTheProxiesInForceToCompareWith() throws Exception {
        List<Route> first = parse(bundle(1, proxy("a", "/a")));
        known.applied();
        assertThatThrownBy(() -> parse(bundle(2, proxy("a", "/a"), proxy("bad", "no-slash"))))
                .isInstanceOf(InvalidProxyException.class).hasMessageContaining("pathPrefix");
        List<Route> third = parse(bundle(3, proxy("a", "/a")));
        assertThat(third.get(0)).isSameAs(first.get(0));
    }

    @Test
    void aBundleParsedButNotAppliedIsNotReused() throws Exception {
        parse(bundle(1, proxy("a", "/a")));
        known.refused();
        assertThat(known.size()).isZero();
        List<Route> again = parse(bundle(2, proxy("a", "/a")));
        assertThat(again).extracting(Route::name).containsExactly("a");
    }

    @Test
    void reuseDoesNotSkipTheChecksAcrossProxies() throws Exception {
        parse(bundle(1, proxy("a", "/a")));
        known.applied();
        assertThatThrownBy(() -> parse(bundle(2, proxy("a", "/a"), proxy("a", "/other"))))
                .isInstanceOf(InvalidProxyException.class).hasMessageContaining("another proxy is named 'a'");
    }

    @Test
    void routesNamingTheSameUpstreamShareOneInstance() throws Exception {
        List<Route> routes = parse(bundle(1, proxy("a", "/a"), proxy("b", "/b")));
        assertThat(routes.get(0).upstreams().get(0)).isSameAs(routes.get(1).upstreams().get(0));
    }
}
