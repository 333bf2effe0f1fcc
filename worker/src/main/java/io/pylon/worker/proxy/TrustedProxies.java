package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

import io.pylon.gateway.model.Cidr;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The client addresses whose forwarding headers ({@code X-Forwarded-*}, {@code Forwarded}, {@code X-Real-IP}) the
 * Worker keeps: the proxies or load balancers in front of it, as CIDR blocks. From anyone else those headers are
 * replaced by what this hop saw. Immutable.
 */
public final class TrustedProxies {
    static final TrustedProxies NONE = new TrustedProxies(List.of());

    private final List<Cidr> blocks;

    private TrustedProxies(List<Cidr> blocks) {
        this.blocks = blocks;
    }

    /**
     * @param cidrs literal addresses with an optional prefix length ({@code 10.0.0.0/8}, {@code ::1}); no host names
     * @throws IllegalArgumentException naming the first entry that is not one
     */
    static TrustedProxies parse(List<String> cidrs) {
        List<Cidr> blocks = new ArrayList<>();
        for (String cidr : cidrs) {
            if (!cidr.isBlank()) {
                blocks.add(Cidr.parse(cidr));
            }
        }
        return blocks.isEmpty() ? NONE : new TrustedProxies(List.copyOf(blocks));
    }

    boolean trusts(@Nullable InetAddress address) {
        if (address == null || blocks.isEmpty()) {
            return false;
        }
        for (Cidr block : blocks) {
            if (block.contains(address)) {
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
