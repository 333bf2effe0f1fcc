package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.http.message.BasicHeader;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The outbound stage: the request the upstream gets from the client's. Hop-by-hop headers (the fixed ones and those
 * the client's {@code Connection} names), {@code Host}, {@code Content-Length} and {@code Expect} are not copied (the
 * transport writes its own). The forwarding headers say what this hop saw: {@code X-Forwarded-For} gets the client's
 * address appended; {@code X-Forwarded-Proto}, {@code -Host}, {@code -Port}, {@code X-Real-IP} and an RFC 7239
 * {@code Forwarded} element are set, and {@code X-Forwarded-Prefix} names a prefix the route stripped. The API key of a
 * proxy with {@code keyAuth} and a client's {@code X-Pylon-Application} are left out in the same pass (the gateway
 * consumes the one and alone names the other, see {@link HeaderTransforms}), and so is any header that spells one of
 * these with underscores ({@link #OWN_NAMES}). When the hop gives the request an identifier ({@link RequestId}), the
 * client's {@code X-Request-Id} (in any spelling) gives way to it. A client's own
 * values of these are replaced, unless it is a {@link io.pylon.gateway.model.TrustedProxies trusted proxy}: then they are kept (its
 * {@code Forwarded} gets this hop's element appended). Pure functions of their arguments.
 */
final class OutboundRequest {
    private static final String X_FORWARDED_FOR = "X-Forwarded-For";
    private static final String X_FORWARDED_PROTO = "X-Forwarded-Proto";
    private static final String X_FORWARDED_HOST = "X-Forwarded-Host";
    private static final String X_FORWARDED_PORT = "X-Forwarded-Port";
    private static final String X_FORWARDED_PREFIX = "X-Forwarded-Prefix";
    private static final String X_REAL_IP = "X-Real-IP";
    private static final String FORWARDED = "Forwarded";
    private static final String X_REQUEST_ID = "X-Request-Id";
    private static final String X_REQUEST_ID_LOWER = "x-request-id";
    /**
     * The headers this hop owns, in lower case. A client's header whose name is one of these with underscores for
     * dashes ({@code X_Forwarded_For}) is left out: CGI, PHP, WSGI and Rack servers read both spellings as the same
     * variable ({@code HTTP_X_FORWARDED_FOR}), so it would stand beside, or for, the value this hop sets. nginx leaves
     * out every header with an underscore for that reason ({@code underscores_in_headers off}); other names pass.
     */
    static final Set<String> OWN_NAMES = Set.of("x-forwarded-for", "x-forwarded-proto", "x-forwarded-host",
            "x-forwarded-port", "x-forwarded-prefix", "x-real-ip", "x-pylon-application");

    private OutboundRequest() {
    }

    /**
     * What this hop knows of the client's request.
     *
     * @param clientIp the address of the client's connection
     * @param secure   whether the client's connection is TLS
     * @param port     the Worker's port the client connected to
     * @param prefix   the path prefix the route strips, null when it strips none
     * @param host     the host (and port) the client named: its {@code Host} header, or the authority of an
     *                 absolute-form target; null when it named none
     * @param trusted  whether the client is a trusted proxy, whose forwarding headers are kept
     * @param preserveHost whether the upstream gets the client's {@code Host} (else the transport sets its own)
     * @param http2    whether the client's request came over HTTP/2, whose header values Helidon decodes otherwise
     * @param requestId the request's {@link RequestId}, which replaces the client's {@code X-Request-Id}; null: the
     *                  gateway gives none, and the client's passes
     */
    record Hop(String clientIp, boolean secure, int port, @Nullable String prefix, @Nullable String host,
               boolean trusted, boolean preserveHost, boolean http2, @Nullable String requestId) {
        static Hop of(String clientIp, boolean secure, @Nullable String host) {
            return new Hop(clientIp, secure, 0, null, host, false, false, false, null);
        }

        /** This hop, the request given {@code id} ({@link RequestId}). */
        Hop withRequestId(String id) {
            return new Hop(clientIp, secure, port, prefix, host, trusted, preserveHost, http2, id);
        }
    }

    /** The request target: the route's path on the upstream, then the client's query as it came (still encoded). */
    static String target(String upstreamPath, String rawQuery) {
        return rawQuery.isEmpty() ? upstreamPath : upstreamPath + "?" + rawQuery;
    }

    /** @param incoming the client's headers */
    static ClassicHttpRequest create(String method, HttpHost upstream, String target, Headers incoming, Hop hop) {
        return create(method, upstream, target, incoming, hop, null);
    }

    /**
     * @param incoming  the client's headers
     * @param keyHeader the header that carries the API key of {@code keyAuth} (any case), left out; null: none
     */
    static ClassicHttpRequest create(String method, HttpHost upstream, String target, Headers incoming, Hop hop,
                                     @Nullable String keyHeader) {
        ClassicHttpRequest outbound = new BasicClassicHttpRequest(method, upstream, target);
        HopByHopHeaders hopByHop = incoming.contains(HeaderNames.CONNECTION)
                ? HopByHopHeaders.of(incoming.all(HeaderNames.CONNECTION, List::of)) : HopByHopHeaders.FIXED_ONLY;
        List<String> forwardedFor = new ArrayList<>(0);
        String proto = null;
        String forwardedHost = null;
        String port = null;
        String prefix = null;
        String realIp = null;
        List<String> forwarded = null;
        for (Header header : incoming) {
            String name = header.headerName().lowerCase();
            if (hopByHop.isHopByHop(name) || name.equals("host") || name.equals("content-length")
                    || name.equals("expect")) {
                continue;
            }
            switch (name) {
                case "x-forwarded-for" -> forwardedFor.addAll(header.allValues());
                case "x-forwarded-proto" -> proto = header.get();
                case "x-forwarded-host" -> forwardedHost = header.get();
                case "x-forwarded-port" -> port = header.get();
                case "x-forwarded-prefix" -> prefix = header.get();
                case "x-real-ip" -> realIp = header.get();
                case "forwarded" -> forwarded = header.allValues();
                case "x-pylon-application" -> { // only the gateway names the application (HeaderTransforms)
                }
                default -> {
                    if (keyHeader != null && name.equalsIgnoreCase(keyHeader)) {
                        continue;
                    }
                    if (hop.requestId() != null && name.equals(X_REQUEST_ID_LOWER)) {
                        continue; // the gateway's replaces it, below
                    }
                    if (name.indexOf('_') >= 0 && owns(name.replace('_', '-'), hop)) {
                        continue; // X_Forwarded_For, X_Real_IP, X_Request_Id...: see OWN_NAMES
                    }
                    if (hop.http2()) {
                        // RFC 9113 section 8.2.3: an HTTP/2 client may split its cookie into fields, which are joined
                        // with "; " for HTTP/1.1, whose servers read one Cookie line (nginx does the same)
                        List<String> values = name.equals("cookie") && header.valueCount() > 1
                                ? List.of(String.join("; ", header.allValues())) : header.allValues();
                        for (String value : values) {
                            String sent = ClientHeaderBytes.utf8IfWide(value);
                            outbound.addHeader(sent == null ? new BasicHeader(header.name(), value)
                                    : new RequestHeadWriter.ObsText(header.name(), sent));
                        }
                    } else if (header.valueCount() == 1) {
                        String sent = ClientHeaderBytes.sentIfReplaced(header);
                        if (sent == null) {
                            outbound.addHeader(header.name(), header.get());
                        } else {
                            outbound.addHeader(new RequestHeadWriter.ObsText(header.name(), sent));
                        }
                    } else {
                        for (String value : header.allValues()) {
                            outbound.addHeader(header.name(), value);
                        }
                    }
                }
            }
        }
        String host = hop.host();
        if (hop.preserveHost() && host != null) {
            outbound.addHeader("Host", host); // the transport adds the upstream's only when there is none
        }
        String ownProto = hop.secure() ? "https" : "http";
        // added, not set: the loop left out every incoming forwarding header (a set would scan the headers again)
        if (forwardedFor.isEmpty()) {
            outbound.addHeader(X_FORWARDED_FOR, hop.clientIp());
        } else {
            forwardedFor.add(hop.clientIp());
            outbound.addHeader(X_FORWARDED_FOR, String.join(", ", forwardedFor));
        }
        boolean trusted = hop.trusted();
        outbound.addHeader(X_FORWARDED_PROTO, trusted && proto != null ? proto : ownProto);
        String keptHost = trusted && forwardedHost != null ? forwardedHost : host;
        if (keptHost != null) {
            outbound.addHeader(X_FORWARDED_HOST, keptHost);
        }
        if (trusted && port != null) {
            outbound.addHeader(X_FORWARDED_PORT, port);
        } else if (hop.port() > 0) {
            outbound.addHeader(X_FORWARDED_PORT, Integer.toString(hop.port()));
        }
        String keptPrefix = trusted ? prefix : null;
        if (hop.prefix() != null) {
            keptPrefix = keptPrefix == null ? hop.prefix() : keptPrefix + hop.prefix();
        }
        if (keptPrefix != null) {
            outbound.addHeader(X_FORWARDED_PREFIX, keptPrefix);
        }
        outbound.addHeader(X_REAL_IP, trusted && realIp != null ? realIp : hop.clientIp());
        String element = forwardedElement(hop.clientIp(), ownProto, host);
        outbound.addHeader(FORWARDED, trusted && forwarded != null
                ? String.join(", ", forwarded) + ", " + element : element);
        if (hop.requestId() != null) {
            outbound.addHeader(X_REQUEST_ID, hop.requestId());
        }
        return outbound;
    }

    /** Whether this hop sets the header {@code lowerCase} names: one of {@link #OWN_NAMES}, or its request ID's. */
    private static boolean owns(String lowerCase, Hop hop) {
        return OWN_NAMES.contains(lowerCase) || (hop.requestId() != null && lowerCase.equals(X_REQUEST_ID_LOWER));
    }

    /** One RFC 7239 element: {@code for=192.0.2.1;proto=http;host="api.example"} (IPv6 and host quoted). */
    private static String forwardedElement(String clientIp, String proto, @Nullable String host) {
        String node = clientIp.indexOf(':') >= 0 ? "\"[" + clientIp + "]\"" : clientIp;
        String element = "for=" + node + ";proto=" + proto;
        return host == null ? element
                : element + ";host=\"" + host.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
