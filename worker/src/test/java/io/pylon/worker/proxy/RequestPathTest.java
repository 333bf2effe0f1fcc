package io.pylon.worker.proxy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestPathTest {
    @ParameterizedTest
    @CsvSource({
            "/, /",
            "/a/b, /a/b",
            "/a/b/, /a/b/",
            "/a//b, /a//b",
            "/a/./b, /a/b",
            "/a/b/., /a/b/",
            "/a/b/.., /a/",
            "/a/../b, /b",
            "/a/%2e%2e/b, /b",
            "/a/%2E%2e/b, /b",
            "/a/.%2E/b, /b",
            "/a/%2e/b, /a/b",
            "/%41%62%7e, /Ab~",
            "/a%20b, /a%20b",
            "/a%c3%a9, /a%C3%A9",
            "/a/%252e%252e/b, /a/%252e%252e/b",
            "/a/b;v=1, /a/b;v=1",
            "/files/x.json, /files/x.json",
            "/a/.hidden, /a/.hidden",
            "/a/...x, /a/...x",
            "/a[1]/b|c, /a[1]/b|c",
            "/a{b}/c^d, /a{b}/c^d"})
    void normalForm(String raw, String normal) throws Exception {
        assertThat(RequestPath.normalize(raw)).isEqualTo(normal);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/..", "/a/../..", "/a/%2e%2e/%2e%2e/x", "/%2e%2e", "/a/..%2f..%2fetc", "/a%2fb",
            "/a%2Fb", "/a%5cb", "/a\\b", "/a/..\\..\\x", "/a/..;/b", "/a/.;x/b", "/a%", "/a%2", "/a%zz", "a/b", "",
            "/a%00b", "/a\u0001b", "/a\tb", "/a\u007fb", "/a b", "/caf\u00e9", "/a\ufffdb"})
    void refused(String raw) {
        assertThatThrownBy(() -> RequestPath.normalize(raw)).isInstanceOf(RequestPath.InvalidPathException.class);
    }

    @Test
    void plainPathIsReturnedAsItCame() throws Exception {
        String raw = "/orders/42/items";
        assertThat(RequestPath.normalize(raw)).isSameAs(raw);
    }

    @ParameterizedTest
    @ValueSource(strings = {"filter[status]=active&ids[]=1", "fields=a|b", "q=50%off", "q={\"a\":1}", "q=a^b`c\\d",
            "a=%00", ""})
    void queriesNginxTakesPassAsTheyCame(String rawQuery) {
        org.assertj.core.api.Assertions.assertThatNoException().isThrownBy(() -> RequestPath.checkQuery(rawQuery));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a=\u0001", "a=b\tc", "a=\u007f", "q=caf\u00e9", "q=\ufffd"})
    void queriesWithControlCharactersOrBytesOutsideAsciiAreRefused(String rawQuery) {
        assertThatThrownBy(() -> RequestPath.checkQuery(rawQuery)).isInstanceOf(RequestPath.InvalidPathException.class)
                .hasMessageStartingWith("The request target holds");
    }

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {
            "/a/../b, null, /b",
            "http://api.example/a/../b, api.example, /b",
            "HTTPS://API.example:8443, API.example:8443, /",
            "http://[::1]:80/x, [::1]:80, /x",
            "http://10.0.0.1/, 10.0.0.1, /"})
    void anAbsoluteFormTargetNamesItsAuthority(String raw, String authority, String path) throws Exception {
        assertThat(RequestPath.target(raw)).isEqualTo(new RequestPath.Target(authority, path));
    }

    @ParameterizedTest
    @ValueSource(strings = {"*", "x", "ftp://h/x", "http:/h/x", "http://", "http:///x", "http://u:p@h/x", "http://h:/x",
            "http://h:123456/x", "http://h:8o/x", "http://[::1/x", "http://h%20/x", "http://h/../x"})
    void aTargetThatIsNeitherAPathNorAnHttpUrlIsRefused(String raw) {
        assertThatThrownBy(() -> RequestPath.target(raw)).isInstanceOf(RequestPath.InvalidPathException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"api.example.com", "api.example.com:8443", "EXAMPLE.com.", "my_host", "10.0.0.1:80", "[::1]",
            "[::1]:8080", "[2001:db8::7]", "a-b~c", "x:65535"})
    void aHostNameOrAddressWithAnOptionalPortIsAnAuthority(String authority) {
        assertThat(RequestPath.isAuthority(authority)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "po d", "pod\r\nX-Injected: 1", "pod\u0000", "a@b", "a/b", "a\\b", "pod\"x", "h%41",
            "h:", ":80", "h:123456", "h:8o", "[::1", "[::1]x", "[zz]", "caf\u00e9", "h\tx"})
    void anythingElseIsNot(String authority) {
        assertThat(RequestPath.isAuthority(authority)).isFalse();
    }

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {
            "/x, api.example:8080, api.example:8080",
            "/x, null, null",
            "http://url.example/x, api.example, url.example",
            "http://url.example/x, a b, url.example"})
    void theHostNamedIsTheTargetsAuthorityElseTheHostHeaders(String raw, String hostHeader, String named)
            throws Exception {
        assertThat(RequestPath.target(raw).named(hostHeader)).isEqualTo(named);
    }

    @Test
    void aHostHeaderThatIsNoAuthorityIsRefusedWhenItCounts() throws Exception {
        assertThatThrownBy(() -> RequestPath.target("/x").named("a b"))
                .isInstanceOf(RequestPath.InvalidPathException.class).hasMessage(RequestPath.INVALID_HOST);
    }
}
