package io.pylon.gateway.model;

import org.jspecify.annotations.Nullable;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/** An IPv4 or IPv6 address block ({@code 10.0.0.0/8}, {@code 2001:db8::/32}, or one address). Immutable. */
public record Cidr(byte[] network, int prefixLength, String text) {
    private static final Pattern V4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern V6 = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

    /** Parses a block; throws {@link IllegalArgumentException} with the reason. Never resolves a name. */
    public static Cidr parse(String text) {
        String value = text.strip();
        int slash = value.indexOf('/');
        String address = slash < 0 ? value : value.substring(0, slash);
        boolean v4 = V4.matcher(address).matches();
        if (!v4 && !(address.contains(":") && V6.matcher(address).matches())) {
            throw new IllegalArgumentException("'" + Texts.printable(text) + "' is not an IP address or CIDR block");
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(address).getAddress(); // a literal: no lookup
        } catch (UnknownHostException | SecurityException e) {
            throw new IllegalArgumentException("'" + Texts.printable(text) + "' is not an IP address or CIDR block");
        }
        int max = bytes.length * 8;
        int prefix = max;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(value.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > max) {
                throw new IllegalArgumentException("'" + Texts.printable(text) + "' has a prefix length outside 0.."
                        + max);
            }
        }
        return new Cidr(mask(bytes, prefix), prefix, value);
    }

    /** The address {@code text} spells as one IP literal, as {@link InetAddress#getHostAddress()} writes it; null for anything else (a name is never looked up). */
    public static @Nullable String addressLiteral(@Nullable String text) {
        if (text == null || text.indexOf('/') >= 0) {
            return null;
        }
        try {
            return InetAddress.getByAddress(parse(text).network()).getHostAddress();
        } catch (IllegalArgumentException | UnknownHostException e) {
            return null;
        }
    }

    public boolean contains(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length != network.length) {
            return false;
        }
        return java.util.Arrays.equals(mask(bytes, prefixLength), network);
    }

    private static byte[] mask(byte[] bytes, int prefix) {
        byte[] out = bytes.clone();
        for (int i = 0; i < out.length; i++) {
            int bits = Math.max(0, Math.min(8, prefix - i * 8));
            out[i] = (byte) (out[i] & (0xFF << (8 - bits)));
        }
        return out;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Cidr c && c.prefixLength == prefixLength && java.util.Arrays.equals(c.network, network);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(network) * 31 + prefixLength;
    }

    @Override
    public String toString() {
        return text;
    }
}
