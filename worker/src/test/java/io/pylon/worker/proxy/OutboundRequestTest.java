package io.pylon.worker.proxy;

import io.helidon.http.HeaderNames;
import io.helidon.http.WritableHeaders;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHost;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The outbound stage on its own: what the upstream gets from the client's headers. */
class OutboundRequestTest {
    private static final HttpHost UPSTREAM = new HttpHost("http", "127.0.0.1", 9000);

    @Test
    void hopByHopHeadersAndThoseConnectionNamesStayBehind() {
        WritableHeaders<?> in = WritableHeaders.create();
        in.add(HeaderNames.CONNECTION, "keep-alive, X-Session-Secret");
        in.add(HeaderNames.create("Keep-Alive"), "timeout=5");
        in.add(HeaderNames.create("X-Session-Secret"), "s3cr3t");
        in.add(HeaderNames.create("Proxy-Authorization"), "Basic eDp5");
        in.add(HeaderNames.TE, "trailers");
        in.add(HeaderNames.UPGRADE, "websocket");
        in.add(HeaderNames.HOST, "api.example.com:8443");
        in.add(HeaderNames.CONTENT_LENGTH, "12");
        in.add(HeaderNames.EXPECT, "100-continue");
        in.add(HeaderNames.create("X-Request-Id"), "abc");
        in.add(HeaderNames.ACCEPT, "text/plain", "application/json");

        ClassicHttpRequest out = OutboundRequest.create("POST", UPSTREAM, "/orders", in,
                OutboundRequest.Hop.of("10.1.2.3", false, "api.example.com:8443"));

        assertThat(names(out)).doesNotContain("Connection", "Keep-Alive", "X-Session-Secret", "Proxy-Authorization",
                "TE", "Upgrade", "Host", "Content-Length", "Expect");
        assertThat(out.getFirstHeader("X-Request-Id").getValue()).isEqualTo("abc");
        assertThat(Arrays.stream(out.getHeaders("Accept")).map(Header::getValue)).containsExactly("text/plain", "application/json");
        assertThat(out.getMethod()).isEqualTo("POST");
        assertThat(out.getRequestUri()).isEqualTo("/orders");
    }

    @Test
    void underscoreSpellingsOfTheHeadersThisHopOwnsStayBehind() {
        WritableHeaders<?> in = WritableHeaders.create();
        for (String name : List.of("X_Forwarded_For", "x_forwarded_proto", "X-Forwarded_Host", "X_FORWARDED_PORT",
                "X_Forwarded_Prefix", "X_Real_IP", "X_Pylon_Application")) {
            in.add(HeaderNames.create(name), "forged");
        }
        in.add(HeaderNames.create("Api_Version"), "2");

        ClassicHttpRequest out = OutboundRequest.create("GET", UPSTREAM, "/", in,
                OutboundRequest.Hop.of("10.1.2.3", false, "api.example.com"));

        assertThat(names(out)).filteredOn(name -> name.indexOf('_') >= 0).containsExactly("Api_Version");
        assertThat(out.getFirstHeader("X-Forwarded-For").getValue()).isEqualTo("10.1.2.3");
    }

    @Test
    void forwardedForIsAppendedProtoAndHostAreThisHopsOwn() {
        WritableHeaders<?> in = WritableHeaders.create();
        in.add(HeaderNames.create("X-Forwarded-For"), "203.0.113.7");
        in.add(HeaderNames.create("X-Forwarded-Proto"), "https");
        in.add(HeaderNames.create("X-Forwarded-Host"), "spoofed.example");
        in.add(HeaderNames.HOST, "api.example.com");

        ClassicHttpRequest out = OutboundRequest.create("GET", UPSTREAM, "/", in,
                OutboundRequest.Hop.of("10.1.2.3", false, "api.example.com"));

        assertThat(out.getHeaders("X-Forwarded-For")).extracting(Header::getValue).containsExactly("203.0.113.7, 10.1.2.3");
        assertThat(out.getHeaders("X-Forwarded-Proto")).extracting(Header::getValue).containsExactly("http");
        assertThat(out.getHeaders("X-Forwarded-Host")).extracting(Header::getValue).containsExactly("api.example.com");
    }

    @Test
    void aRequestWithoutHostOrForwardingHeadersGetsOnlyWhatThisHopKnows() {
        ClassicHttpRequest out = OutboundRequest.create("GET", UPSTREAM, "/", WritableHeaders.create(),
                OutboundRequest.Hop.of("::1", true, null));

        assertThat(out.getFirstHeader("X-Forwarded-For").getValue()).isEqualTo("::1");
        assertThat(out.getFirstHeader("X-Forwarded-Proto").getValue()).isEqualTo("https");
        assertThat(out.getFirstHeader("X-Forwarded-Host")).isNull();
    }

    private static WritableHeaders<?> spoofing() {
        WritableHeaders<?> in = WritableHeaders.create();
        in.add(HeaderNames.HOST, "api.example.com");
        in.add(HeaderNames.create("X-Forwarded-For"), "203.0.113.7");
        in.add(HeaderNames.create("X-Forwarded-Proto"), "https");
        in.add(HeaderNames.create("X-Forwarded-Host"), "spoofed.example");
        in.add(HeaderNames.create("X-Forwarded-Port"), "1");
        in.add(HeaderNames.create("X-Forwarded-Prefix"), "/evil");
        in.add(HeaderNames.create("X-Real-IP"), "198.51.100.1");
        in.add(HeaderNames.create("Forwarded"), "for=198.51.100.1;proto=https");
        return in;
    }

    @Test
    void anUntrustedClientsForwardingHeadersAreReplacedByWhatThisHopSaw() {
        ClassicHttpRequest out = OutboundRequest.create("GET", UPSTREAM, "/", spoofing(),
                new OutboundRequest.Hop("10.1.2.3", false, 8091, "/api", "api.example.com", false, false, false, null));

        assertThat(out.getHeaders("X-Forwarded-Proto")).extracting(Header::getValue).containsExactly("http");
        assertThat(out.getHeaders("X-Forwarded-Host")).extracting(Header::getValue).containsExactly("api.example.com");
        assertThat(out.getHeaders("X-Forwarded-Port")).extracting(Header::getValue).containsExactly("8091");
        assertThat(out.getHeaders("X-Forwarded-Prefix")).extracting(Header::getValue).containsExactly("/api");
        assertThat(out.getHeaders("X-Real-IP")).extracting(Header::getValue).containsExactly("10.1.2.3");
        assertThat(out.getHeaders("Forwarded")).extracting(Header::getValue)
                .containsExactly("for=10.1.2.3;proto=http;host=\"api.example.com\"");
        assertThat(out.getFirstHeader("Host")).isNull(); // the transport writes the upstream's
    }

    @Test
    void aTrustedProxysForwardingHeadersAreKept() {
        ClassicHttpRequest out = OutboundRequest.create("GET", UPSTREAM, "/", spoofing(),
                new OutboundRequest.Hop("10.1.2.3", false, 8091, null, "api.example.com", true, false, false, null));

        assertThat(out.getHeaders("X-Forwarded-For")).extracting(Header::getValue).containsExactly("203.0.113.7, 10.1.2.3");
        assertThat(out.getHeaders("X-Forwarded-Proto")).extracting(Header::getValue).containsExactly("https");
        assertThat(out.getHeaders("X-Forwarded-Host")).extracting(Header::getValue).containsExactly("spoofed.example");
        assertThat(out.getHeaders("X-Forwarded-Port")).extracting(Header::getValue).containsExactly("1");
        assertThat(out.getHeaders("X-Forwarded-Prefix")).extracting(Header::getValue).containsExactly("/evil");
        assertThat(out.getHeaders("X-Real-IP")).extracting(Header::getValue).containsExactly("198.51.100.1");
        assertThat(out.getHeaders("Forwarded")).extracting(Header::getValue).containsExactly(
                "for=198.51.100.1;proto=https, for=10.1.2.3;proto=http;host=\"api.example.com\"");
    }

    @Test
    void ipv6ClientIsQuotedInForwardedAndPreserveHostSendsTheClientsHost() {
        ClassicHttpRequest out = OutboundRequest.create("GET", UPSTREAM, "/", spoofing(),
                new OutboundRequest.Hop("::1", true, 8443, null, "api.example.com", false, true, false, null));

        assertThat(out.getFirstHeader("Forwarded").getValue()).isEqualTo("for=\"[::1]\";proto=https;host=\"api.example.com\"");
        assertThat(out.getFirstHeader("Host").getValue()).isEqualTo("api.example.com");
        assertThat(out.getFirstHeader("X-Forwarded-Prefix")).isNull();
    }

    @Test
    void theApiKeyInAnySpellingAndAClientsApplicationHeaderStayBehind() {
        WritableHeaders<?> in = WritableHeaders.create();
        in.add(HeaderNames.create("x-consumer-KEY"), "pylon_key_secret");
        in.add(HeaderNames.create("x-pylon-application"), "app-forged");
        in.add(HeaderNames.create("X-API-Key"), "not the key header of this proxy");
        in.add(HeaderNames.create("X-Request-Id"), "abc");

        ClassicHttpRequest out = OutboundRequest.create("GET", UPSTREAM, "/", in,
                OutboundRequest.Hop.of("10.1.2.3", false, null), "X-Consumer-Key");
        HeaderTransforms.request(io.pylon.gateway.model.Policies.NONE, "app-1", out);

        assertThat(out.getHeaders("X-Consumer-Key")).isEmpty();
        assertThat(out.getHeaders("X-Pylon-Application")).extracting(Header::getValue).containsExactly("app-1");
        assertThat(out.getHeaders("X-API-Key")).extracting(Header::getValue)
                .containsExactly("not the key header of this proxy");
        assertThat(out.getFirstHeader("X-Request-Id").getValue()).isEqualTo("abc");

        ClassicHttpRequest open = OutboundRequest.create("GET", UPSTREAM, "/", in,
                OutboundRequest.Hop.of("10.1.2.3", false, null));
        assertThat(open.getHeaders("X-Pylon-Application")).as("only the gateway names the application").isEmpty();
        assertThat(open.getHeaders("X-Consumer-Key")).hasSize(1);
    }

    @Test
    void theGatewaysRequestIdReplacesTheClientsInEverySpelling() {
        WritableHeaders<?> in = WritableHeaders.create();
        in.add(HeaderNames.create("x-request-id"), "forged");
        in.add(HeaderNames.create("X_Request_Id"), "forged-too");
        in.add(HeaderNames.create("X-Request-Ids"), "another header");

        ClassicHttpRequest out = OutboundRequest.create("GET", UPSTREAM, "/", in,
                OutboundRequest.Hop.of("10.1.2.3", false, null).withRequestId("id-1"));

        assertThat(out.getHeaders("X-Request-Id")).extracting(Header::getValue).containsExactly("id-1");
        assertThat(names(out)).doesNotContain("X_Request_Id").contains("X-Request-Ids");
    }

    @Test
    void theQueryIsPassedOnAsItCame() {
        assertThat(OutboundRequest.target("/base/orders", "")).isEqualTo("/base/orders");
        assertThat(OutboundRequest.target("/base/orders", "q=a%20b&x")).isEqualTo("/base/orders?q=a%20b&x");
    }

    private static java.util.List<String> names(ClassicHttpRequest request) {
        return Arrays.stream(request.getHeaders()).map(Header::getName).toList();
    }
}
