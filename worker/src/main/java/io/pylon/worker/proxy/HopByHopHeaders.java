package io.pylon.worker.proxy;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Headers that belong to one connection and are never forwarded (RFC 9110 section 7.6.1): the fixed list plus every
 * header the {@code Connection} header names.
 */
final class HopByHopHeaders {
    private static final List<String> FIXED = List.of("connection", "keep-alive", "proxy-connection",
            "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade");

    private final Set<String> named;

    private HopByHopHeaders(Set<String> named) {
        this.named = named;
    }

    /** @param connectionValues the values of the message's Connection header (may be empty) */
    static HopByHopHeaders of(Iterable<String> connectionValues) {
        Set<String> named = null;
        for (String value : connectionValues) {
            for (String token : value.split(",")) {
                String name = token.strip().toLowerCase(Locale.ROOT);
                if (!name.isEmpty()) {
                    if (named == null) {
                        named = new HashSet<>();
                    }
                    named.add(name);
                }
            }
        }
        return new HopByHopHeaders(named == null ? Set.of() : named);
    }

    /** @param name the header name, in any case */
    boolean isHopByHop(String name) {
        if (name.isEmpty()) {
            return false;
        }
        // compared in place: a lower-case copy of every forwarded header name is garbage on the hot path
        for (int i = 0; i < FIXED.size(); i++) {
            String fixed = FIXED.get(i);
            if (fixed.length() == name.length() && fixed.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return !named.isEmpty() && named.contains(name.toLowerCase(Locale.ROOT));
    }
}
