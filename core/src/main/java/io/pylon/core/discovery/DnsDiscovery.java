package io.pylon.core.discovery;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The A records of a headless Service: one per ready pod behind it. Records carry addresses only, so a pod's name
 * is its address until it answers (then its answer carries the real one). This pod is recognised by its address.
 * Lookups go through the JVM resolver and its cache ({@code networkaddress.cache.ttl}, 30 s by default).
 */
public final class DnsDiscovery implements PodDiscovery {
    private final String service;
    private final int port;
    private final DiscoveredPod self;
    private final Function<String, InetAddress[]> resolver;
    private final Supplier<String> scheme;

    public DnsDiscovery(String service, int port, DiscoveredPod self) {
        this(service, port, self, DnsDiscovery::resolve, () -> "http");
    }

    /** @param scheme {@code http}, or {@code https} when the pods listen on TLS (asked on every listing) */
    public DnsDiscovery(String service, int port, DiscoveredPod self, Supplier<String> scheme) {
        this(service, port, self, DnsDiscovery::resolve, scheme);
    }

    DnsDiscovery(String service, int port, DiscoveredPod self, Function<String, InetAddress[]> resolver) {
        this(service, port, self, resolver, () -> "http");
    }

    DnsDiscovery(String service, int port, DiscoveredPod self, Function<String, InetAddress[]> resolver,
                 Supplier<String> scheme) {
        this.service = service;
        this.port = port;
        this.self = self;
        this.resolver = resolver;
        this.scheme = scheme;
    }

    @Override
    public DiscoveryMode mode() {
        return DiscoveryMode.DNS;
    }

    @Override
    public List<DiscoveredPod> pods() throws DiscoveryException {
        InetAddress[] addresses;
        try {
            addresses = resolver.apply(service);
        } catch (IllegalStateException e) {
            throw new DiscoveryException("cannot resolve the headless Service " + service + ": " + e.getMessage(), e);
        }
        List<DiscoveredPod> pods = new ArrayList<>();
        boolean selfListed = false;
        for (InetAddress address : addresses) {
            if (!(address instanceof Inet4Address)) {
                continue;
            }
            String ip = address.getHostAddress();
            if (ip.equals(self.podIp())) {
                selfListed = true;
                pods.add(self);
            } else {
                pods.add(DiscoveredPod.callable(ip, ip, URI.create(scheme.get() + "://" + ip + ":" + port)));
            }
        }
        if (!selfListed) {
            pods.add(self);
        }
        return pods;
    }

    private static InetAddress[] resolve(String host) {
        try {
            return InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("unknown host");
        }
    }
}
