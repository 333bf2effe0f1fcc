package io.pylon.gateway.model;

import io.pylon.core.config.SettingType;
import org.jspecify.annotations.Nullable;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * The proxies or load balancers in front of a pod, as CIDR blocks: only from these are forwarding headers believed.
 * The client behind them is found as nginx's {@code real_ip_recursive on} finds it: the right-most
 * {@code X-Forwarded-For} entry that is not itself a trusted proxy. Immutable.
 */
public final class TrustedProxies {
    public static final TrustedProxies NONE = new TrustedProxies(List.of());
    /** The type of a setting that names trusted proxies. */
    public static final SettingType<TrustedProxies> SETTING_TYPE = new SettingType<>(
            "a comma-separated list of IP addresses or CIDR blocks (e.g. 10.0.0.0/8, ::1)",
            s -> parse(List.of(s.split(","))));

    private final List<Cidr> blocks;

    private TrustedProxies(List<Cidr> blocks) {
        this.blocks = blocks;
    }

    /**
     * @param cidrs literal addresses with an optional prefix length ({@code 10.0.0.0/8}, {@code ::1}); no host names;
     *              blank entries are skipped
     * @throws IllegalArgumentException naming the first entry that is not one
     */
    public static TrustedProxies parse(List<String> cidrs) {
        List<Cidr> blocks = new ArrayList<>();
        for (String cidr : cidrs) {
            if (!cidr.isBlank()) {
                blocks.add(Cidr.parse(cidr));
            }
        }
        return blocks.isEmpty() ? NONE : new TrustedProxies(List.copyOf(blocks));
    }

    public boolean trusts(@Nullable InetAddress address) {
        return address != null && contains(blocks, address);
    }

    /**
     * The client a request comes from.
     *
     * @param forwardedFor the request's X-Forwarded-For values joined by ',' (null when absent)
     * @return the peer when it is not trusted or has no readable header, else the right-most forwarded address that
     *         is not a trusted proxy (the left-most one when all are); an unreadable entry ends the walk there
     */
    public InetAddress clientAddress(InetAddress peer, @Nullable String forwardedFor) {
        return clientAddress(blocks, peer, forwardedFor);
    }

    static InetAddress clientAddress(List<Cidr> trusted, InetAddress peer, @Nullable String forwardedFor) {
        if (forwardedFor == null || trusted.isEmpty() || !contains(trusted, peer)) {
            return peer;
        }
        String[] hops = forwardedFor.split(",");
        InetAddress client = peer;
        for (int i = hops.length - 1; i >= 0; i--) {
            InetAddress address;
            try {
                Cidr hop = Cidr.parse(hops[i].strip());
                if (hop.prefixLength() != hop.network().length * 8) {
                    return client; // a block is not an address
                }
                address = InetAddress.getByAddress(hop.network());
            } catch (IllegalArgumentException | UnknownHostException e) {
                return client; // an unreadable hop: trust no further than the last proxy we could read
            }
            client = address;
            if (!contains(trusted, address)) {
                return address;
            }
        }
        return client;
    }

    private static boolean contains(List<Cidr> blocks, InetAddress address) {
        for (int i = 0; i < blocks.size(); i++) {
            if (blocks.get(i).contains(address)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return String.join(", ", blocks.stream().map(Cidr::text).toList());
    }
}
