package io.pylon.integration.egress;

import org.apache.hc.client5.http.DnsResolver;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The HTTP client's resolver: it resolves once and hands the client only checked addresses, which the client then
 * connects to, so that a name cannot resolve to a public address for the check and to an internal one for the
 * connection (DNS rebinding). IP literals pass through it too. Stateless and thread-safe.
 */
public final class GuardedDnsResolver implements DnsResolver {
    private final EgressGuard guard;

    public GuardedDnsResolver(EgressGuard guard) {
        this.guard = guard;
    }

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        return guard.resolve(host);
    }

    @Override
    public String resolveCanonicalHostname(String host) throws UnknownHostException {
        guard.resolve(host);
        return host;
    }
}
