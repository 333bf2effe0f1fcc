package io.pylon.worker.proxy;

import org.jspecify.annotations.Nullable;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Headers that belong to one connection and are never forwarded (RFC 9110 section 7.6.1): the fixed list plus every
 * header the {@code Connection} header names. Immutable.
 */
final class HopByHopHeaders {
    private static final List<String> FIXED = List.of("connection", "keep-alive", "proxy-connection",
            "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade");
    private static final String CLOSE = "close";
    /** The fixed list alone: what nearly every message needs, shared. */
    static final HopByHopHeaders FIXED_ONLY = new HopByHopHeaders(Set.of());

    private final Set<String> named;

    private HopByHopHeaders(Set<String> named) {
        this.named = named;
    }

    /** @param connectionValues the values of the message's Connection header (may be empty) */
    static HopByHopHeaders of(Iterable<String> connectionValues) {
        Set<String> named = null;
        for (String value : connectionValues) {
            named = addTokens(value, named);
        }
        return named == null ? FIXED_ONLY : new HopByHopHeaders(named);
    }

    /** One Connection header value; the common {@code keep-alive} or {@code close} costs no allocation. */
    static HopByHopHeaders of(@Nullable String connectionValue) {
        Set<String> named = connectionValue == null ? null : addTokens(connectionValue, null);
        return named == null ? FIXED_ONLY : new HopByHopHeaders(named);
    }

    // Tokens that name a header outside the fixed list; "close" names no header and is skipped too.
    private static @Nullable Set<String> addTokens(String value, @Nullable Set<String> named) {
        int start = 0;
        int length = value.length();
        while (start <= length) {
            int comma = value.indexOf(',', start);
            int end = comma < 0 ? length : comma;
            int from = start;
            int to = end;
            while (from < to && Character.isWhitespace(value.charAt(from))) {
                from++;
            }
            while (to > from && Character.isWhitespace(value.charAt(to - 1))) {
                to--;
            }
            boolean close = to - from == CLOSE.length() && value.regionMatches(true, from, CLOSE, 0, CLOSE.length());
            if (to > from && !close && !isFixed(value, from, to)) {
                if (named == null) {
                    named = new HashSet<>();
                }
                named.add(value.substring(from, to).toLowerCase(Locale.ROOT));
            }
            start = end + 1;
        }
        return named;
    }

    private static boolean isFixed(String value, int from, int to) {
        for (int i = 0; i < FIXED.size(); i++) {
            String fixed = FIXED.get(i);
            if (fixed.length() == to - from && value.regionMatches(true, from, fixed, 0, fixed.length())) {
                return true;
            }
        }
        return false;
    }

    /** @param name the header name, in any case */
    boolean isHopByHop(String name) {
        if (name.isEmpty()) {
            return false;
        }
        // compared in place: a lower-case copy of every forwarded header name is garbage on the hot path
        if (isFixed(name, 0, name.length())) {
            return true;
        }
        return !named.isEmpty() && named.contains(name.toLowerCase(Locale.ROOT));
    }
}
