package io.pylon.integration.egress;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** An IP address or CIDR block ({@code 10.0.0.0/8}, {@code fd00::/8}); IPv4-mapped IPv6 addresses count as IPv4. */
record AddressBlock(byte[] network, int prefix) {

    /** @throws IllegalArgumentException when the text is no IP literal or CIDR block */
    static AddressBlock parse(String text) {
        int slash = text.indexOf('/');
        String ip = slash < 0 ? text : text.substring(0, slash);
        if (!IpLiteral.looksLike(ip)) {
            throw new IllegalArgumentException("not an IP address or CIDR block: " + text);
        }
        byte[] address;
        try {
            address = Addresses.canonical(InetAddress.getByName(ip)).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address or CIDR block: " + text);
        }
        int bits = address.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(text.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (ip.contains(":") && address.length == 4) {
                prefix -= 96;
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("prefix length out of range in " + text);
            }
        }
        return new AddressBlock(address, prefix);
    }

    boolean contains(InetAddress candidate) {
        byte[] a = Addresses.canonical(candidate).getAddress();
        if (a.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (a[full] & mask) == (network[full] & mask);
    }
}
