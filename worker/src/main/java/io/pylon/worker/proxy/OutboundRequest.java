package io.pylon.worker.proxy;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;

import java.util.ArrayList;
import java.util.List;

/**
 * The outbound stage: the request the upstream gets from the client's. Hop-by-hop headers (the fixed ones and those
 * the client's {@code Connection} names), {@code Host}, {@code Content-Length} and {@code Expect} are not copied (the
 * transport writes its own); {@code X-Forwarded-For} gets the client's address appended, {@code X-Forwarded-Proto}
 * and {@code X-Forwarded-Host} say what this hop saw (incoming values are replaced). Pure functions of their
 * arguments.
 */
final class OutboundRequest {
    private static final String X_FORWARDED_FOR = "X-Forwarded-For";
    private static final String X_FORWARDED_PROTO = "X-Forwarded-Proto";
    private static final String X_FORWARDED_HOST = "X-Forwarded-Host";

    private OutboundRequest() {
    }

    /** The request target: the route's path on the upstream, then the client's query as it came (still encoded). */
    static String target(String upstreamPath, String rawQuery) {
        return rawQuery.isEmpty() ? upstreamPath : upstreamPath + "?" + rawQuery;
    }

    /**
     * @param incoming the client's headers
     * @param clientIp the address of the client's connection
     * @param secure   whether the client's connection is TLS
     */
    static ClassicHttpRequest create(String method, HttpHost upstream, String target, Headers incoming,
                                     String clientIp, boolean secure) {
        ClassicHttpRequest outbound = new BasicClassicHttpRequest(method, upstream, target);
        HopByHopHeaders hop = incoming.contains(HeaderNames.CONNECTION)
                ? HopByHopHeaders.of(incoming.all(HeaderNames.CONNECTION, List::of)) : HopByHopHeaders.FIXED_ONLY;
        List<String> forwardedFor = new ArrayList<>(0);
        for (Header header : incoming) {
            String name = header.headerName().lowerCase();
            if (hop.isHopByHop(name) || name.equals("host") || name.equals("content-length") || name.equals("expect")) {
                continue;
            }
            if (name.equals("x-forwarded-for")) {
                forwardedFor.addAll(header.allValues());
                continue;
            }
            if (name.equals("x-forwarded-proto") || name.equals("x-forwarded-host")) {
                continue;
            }
            if (header.valueCount() == 1) {
                outbound.addHeader(header.name(), header.get());
                continue;
            }
            for (String value : header.allValues()) {
                outbound.addHeader(header.name(), value);
            }
        }
        // added, not set: the loop left out every incoming X-Forwarded-* (a set would scan the headers again)
        if (forwardedFor.isEmpty()) {
            outbound.addHeader(X_FORWARDED_FOR, clientIp);
        } else {
            forwardedFor.add(clientIp);
            outbound.addHeader(X_FORWARDED_FOR, String.join(", ", forwardedFor));
        }
        outbound.addHeader(X_FORWARDED_PROTO, secure ? "https" : "http");
        incoming.first(HeaderNames.HOST).ifPresent(host -> outbound.addHeader(X_FORWARDED_HOST, host));
        return outbound;
    }
}
