package io.pylon.core.http;

import io.helidon.common.uri.UriPath;
import io.helidon.http.PathMatcher;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LiteralPrefixMatcherTest {
    @Test
    void templateMatchesAsHelidonsDoesBehindItsLiteralPart() {
        PathMatcher matcher = LiteralPrefixMatcher.of("/platform/diagnostics/{name}");
        var match = matcher.match(UriPath.create("/platform/diagnostics/jvm"));
        assertThat(match.accepted()).isTrue();
        assertThat(match.path().pathParameters().get("name")).isEqualTo("jvm");
        assertThat(matcher.match(UriPath.create("/platform/diagnostics/jvm/x")).accepted()).isFalse();
        assertThat(matcher.match(UriPath.create("/orders/diagnostics/jvm")).accepted()).isFalse();
        assertThat(matcher.prefixMatch(UriPath.create("/orders")).accepted()).isFalse();
    }

    @Test
    void literalPathIsHelidonsExactMatcher() {
        PathMatcher matcher = LiteralPrefixMatcher.of("/platform/management/health");
        assertThat(matcher).isNotInstanceOf(LiteralPrefixMatcher.class);
        assertThat(matcher.match(UriPath.create("/platform/management/health")).accepted()).isTrue();
        assertThat(matcher.match(UriPath.create("/platform/management/healthz")).accepted()).isFalse();
    }
}
