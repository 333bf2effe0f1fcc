package io.pylon.integration.egress;

import org.jspecify.annotations.Nullable;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** What kind of address an IP is, IPv4-mapped and IPv4-compatible IPv6 addresses decoded to the IPv4 they carry. */
final class Addresses {
    private Addresses() {
    }

    /** The IPv4 address inside {@code ::ffff:a.b.c.d} or {@code ::a.b.c.d}; any other address as it is. */
    static InetAddress canonical(InetAddress address) {
        if (address instanceof Inet6Address v6) {
            byte[] b = v6.getAddress();
            boolean zeros = true;
            for (int i = 0; i < 10; i++) {
                zeros &= b[i] == 0;
            }
            boolean mapped = zeros && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
            boolean compatible = zeros && b[10] == 0 && b[11] == 0 && !(b[12] == 0 && b[13] == 0 && b[14] == 0);
            if (mapped || compatible) {
                try {
                    return InetAddress.getByAddress(new byte[]{b[12], b[13], b[14], b[15]});
                } catch (UnknownHostException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return address;
    }

    /**
     * Why the address is internal (loopback, private, link-local, cloud metadata, carrier-grade NAT, unique local,
     * multicast, unspecified, broadcast), or null for an address on the public internet.
     */
    static @Nullable String internalKind(InetAddress raw) {
        InetAddress address = canonical(raw);
        byte[] b = address.getAddress();
        if (address.isLoopbackAddress()) {
            return "loopback";
        }
        if (address.isAnyLocalAddress()) {
            return "unspecified";
        }
        if (address instanceof Inet4Address) {
            int a0 = b[0] & 0xff;
            int a1 = b[1] & 0xff;
            if (a0 == 169 && a1 == 254) {
                return (b[2] & 0xff) == 169 && (b[3] & 0xff) == 254 ? "cloud metadata" : "link-local";
            }
            if (a0 == 0) {
                return "unspecified";
            }
            if (a0 == 10 || (a0 == 172 && a1 >= 16 && a1 <= 31) || (a0 == 192 && a1 == 168)) {
                return "private";
            }
            if (a0 == 100 && a1 >= 64 && a1 <= 127) {
                return "carrier-grade NAT";
            }
            if (a0 == 198 && (a1 == 18 || a1 == 19)) {
                return "benchmarking";
            }
            if (a0 >= 224) {
                return a0 < 240 ? "multicast" : "reserved";
            }
            return null;
        }
        int a0 = b[0] & 0xff;
        if (a0 == 0xfe && (b[1] & 0xc0) == 0x80) {
            return "link-local";
        }
        if ((a0 & 0xfe) == 0xfc) {
            return a0 == 0xfd && (b[1] & 0xff) == 0x00 && (b[2] & 0xff) == 0x0e && (b[3] & 0xff) == 0xc2
                    ? "cloud metadata" : "unique local";
        }
        if (a0 == 0xff) {
            return "multicast";
        }
        if (a0 == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b) {
            return "NAT64";
        }
        return null;
    }
}
