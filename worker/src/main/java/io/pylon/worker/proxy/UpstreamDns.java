package io.pylon.worker.proxy;

import io.pylon.core.net.NameLookups;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.core5.util.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Resolves the upstreams' host names within a bound ({@link NameLookups}): a DNS server that does not answer held every
 * new upstream connection for the system resolver's whole retry cycle (10 s and more), past the route's connect
 * timeout, while failover waited. Pooled connections are made inside {@link NameLookups#run} with the connect timeout
 * of the request that needs them; a lookup past it, or a name not found, is an {@link UnknownHostException}, which the
 * dispatch treats as a refused connection: the next upstream is tried. Stateless.
 */
final class UpstreamDns implements DnsResolver {
    static final UpstreamDns INSTANCE = new UpstreamDns();

    private UpstreamDns() {
    }

    /** The address to connect to for {@code host}: its first, looked up within {@code bound}. */
    InetSocketAddress address(String host, int port, Timeout bound) throws UnknownHostException {
        return new InetSocketAddress(NameLookups.SHARED.lookUp(host, bound.toDuration())[0], port);
    }

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        return NameLookups.SHARED.lookUp(host);
    }

    @Override
    public String resolveCanonicalHostname(String host) throws UnknownHostException {
        return SystemDefaultDnsResolver.INSTANCE.resolveCanonicalHostname(host);
    }
}
