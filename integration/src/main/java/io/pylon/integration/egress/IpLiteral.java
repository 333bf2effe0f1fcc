package io.pylon.integration.egress;

/** Whether text is an IP literal (so that {@link java.net.InetAddress#getByName} does not look it up in DNS). */
final class IpLiteral {
    private IpLiteral() {
    }

    static boolean looksLike(String host) {
        if (host.isEmpty()) {
            return false;
        }
        if (host.indexOf(':') >= 0) {
            return host.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.');
        }
        return host.chars().allMatch(c -> (c >= '0' && c <= '9') || c == '.');
    }
}
