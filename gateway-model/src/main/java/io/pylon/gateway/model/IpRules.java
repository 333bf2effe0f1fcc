package io.pylon.gateway.model;

import org.jspecify.annotations.Nullable;

import java.net.InetAddress;
import java.util.List;

/**
 * A proxy's IP rules: a request is refused when its client address is in {@code deny}, or when {@code allow} is not
 * empty and the address is not in it. The client address is the TCP peer, unless the peer is one of
 * {@code trustedProxies}: then the right-most {@code X-Forwarded-For} entry that is not itself a trusted proxy
 * ({@link TrustedProxies#clientAddress}).
 */
public record IpRules(List<Cidr> allow, List<Cidr> deny, List<Cidr> trustedProxies) {
    public static final IpRules NONE = new IpRules(List.of(), List.of(), List.of());

    public IpRules {
        allow = List.copyOf(allow);
        deny = List.copyOf(deny);
        trustedProxies = List.copyOf(trustedProxies);
    }

    public boolean isEmpty() {
        return allow.isEmpty() && deny.isEmpty();
    }

    public boolean permits(InetAddress client) {
        if (anyContains(deny, client)) {
            return false;
        }
        return allow.isEmpty() || anyContains(allow, client);
    }

    /**
     * @param forwardedFor the request's X-Forwarded-For values joined by ',' (null when absent)
     * @return the address the rules apply to; the peer when it is not trusted or the header cannot be read
     */
    public InetAddress clientAddress(InetAddress peer, @Nullable String forwardedFor) {
        return TrustedProxies.clientAddress(trustedProxies, peer, forwardedFor);
    }

    private static boolean anyContains(List<Cidr> blocks, InetAddress address) {
        for (int i = 0; i < blocks.size(); i++) {
            if (blocks.get(i).contains(address)) {
                return true;
            }
        }
        return false;
    }
}
