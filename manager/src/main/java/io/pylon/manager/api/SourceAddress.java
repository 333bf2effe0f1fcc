package io.pylon.manager.api;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.pylon.gateway.model.TrustedProxies;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;

/**
 * The caller's address, which the audit log records and sign-in throttling counts per: the TCP peer, unless the peer is
 * one of the trusted proxies ({@code pylon.manager.trusted-proxies}, an ingress or load balancer in front of the
 * Manager); then the right-most {@code X-Forwarded-For} entry that is not itself a trusted proxy, resolved once per
 * request by the filter {@link #install} adds.
 */
public final class SourceAddress {
    private record Forwarded(String address) {
    }

    private SourceAddress() {
    }

    /** Resolves the address behind {@code trusted} proxies for each request; nothing when none are trusted. */
    public static void install(HttpRouting.Builder routing, TrustedProxies trusted) {
        if (trusted.equals(TrustedProxies.NONE)) {
            return;
        }
        routing.addFilter((chain, req, res) -> {
            if (req.remotePeer().address() instanceof InetSocketAddress inet && inet.getAddress() != null
                    && trusted.trusts(inet.getAddress())) {
                List<String> forwarded = req.headers().all(HeaderNames.X_FORWARDED_FOR, List::of);
                if (!forwarded.isEmpty()) {
                    req.context().register(new Forwarded(trusted.clientAddress(inet.getAddress(),
                            String.join(",", forwarded)).getHostAddress()));
                }
            }
            chain.proceed();
        });
    }

    public static String of(ServerRequest req) {
        java.util.Optional<Forwarded> forwarded = req.context().get(Forwarded.class);
        if (forwarded.isPresent()) {
            return forwarded.get().address();
        }
        SocketAddress address = req.remotePeer().address();
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return String.valueOf(address);
    }
}
