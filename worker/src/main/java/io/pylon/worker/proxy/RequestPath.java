package io.pylon.worker.proxy;

import io.helidon.common.uri.UriValidator;
import org.jspecify.annotations.Nullable;

import java.util.Objects;

/**
 * The one normal form of a request path, which routes match and the upstream receives (RFC 3986 section 6.2.2):
 * percent-encoded unreserved characters decoded ({@code %2e} is a dot, {@code %41} an {@code A}), other
 * percent-encodings kept with upper-case hex, then dot-segments removed (section 5.2.4). What a route prefix or an
 * upstream's base path could be escaped with is refused instead: a path that climbs above the root, an encoded
 * slash or backslash ({@code %2F}, {@code %5C}: a segment must not become two upstream), a raw backslash, a
 * dot-segment with parameters ({@code ..;x}, which some servers read as {@code ..}), a malformed percent-encoding, an
 * encoded NUL, a control character, bytes outside ASCII. Characters RFC 3986 wants encoded but nginx takes as they are
 * ({@code [ ] { } | ^ "}) pass. Double encoding ({@code %252e}) is data: it stays as it came. It also reads the host
 * a request names, in an absolute-form target ({@link #target}) or its Host header ({@link #isAuthority}).
 *
 * <p>Threading: stateless, so any thread may call it; the one {@code synchronized} below only keeps the signature of
 * the {@link Throwable#fillInStackTrace} it overrides.
 */
final class RequestPath {
    /** Why a path is refused; the message names the problem for the client's 400. */
    static final class InvalidPathException extends Exception {
        InvalidPathException(String message) {
            super(message);
        }

        /** What is wrong with the request's target, in a sentence for the client: the message, never null. */
        String reason() {
            return Objects.requireNonNull(getMessage());
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this; // a client's mistake, answered with 400: no stack trace to build
        }
    }

    static final String INVALID_HOST = "The Host header is not a valid host name or address with an optional port.";

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private RequestPath() {
    }

    /**
     * A request target: the normal path, and the authority an absolute-form target names ({@code GET
     * http://api.example/x}, which RFC 9112 section 3.2.2 asks servers to accept); its host then replaces the
     * {@code Host} header's. Null for the usual origin form ({@code /x}).
     */
    record Target(@Nullable String authority, String path) {
        /**
         * The host (and port) the request names: this target's authority, which stands for the Host header (RFC 9112
         * section 3.2.2), else {@code hostHeader}; null when neither.
         *
         * @throws InvalidPathException when the Host header is not a host name or address with an optional port
         */
        @Nullable String named(@Nullable String hostHeader) throws InvalidPathException {
            if (authority != null) {
                return authority;
            }
            if (hostHeader != null && !isAuthority(hostHeader)) {
                throw new InvalidPathException(INVALID_HOST);
            }
            return hostHeader;
        }
    }

    /**
     * @param raw the target as it came on the request line, without its query: a path, or an absolute {@code http} or
     *            {@code https} URL
     */
    static Target target(String raw) throws InvalidPathException {
        if (!raw.isEmpty() && raw.charAt(0) == '/') {
            return new Target(null, normalize(raw));
        }
        int schemeEnd = raw.indexOf("://");
        String scheme = schemeEnd < 0 ? "" : raw.substring(0, schemeEnd);
        if (!scheme.equalsIgnoreCase("http") && !scheme.equalsIgnoreCase("https")) {
            throw new InvalidPathException("The request target must be a path starting with '/', or an absolute "
                    + "http or https URL");
        }
        int pathStart = raw.indexOf('/', schemeEnd + 3);
        String authority = raw.substring(schemeEnd + 3, pathStart < 0 ? raw.length() : pathStart);
        if (!isAuthority(authority)) {
            throw new InvalidPathException("The request target's URL needs a host name or address, then an optional "
                    + "port, and nothing else");
        }
        return new Target(authority, normalize(pathStart < 0 ? "/" : raw.substring(pathStart)));
    }

    /**
     * Whether {@code authority} is what a Host header may hold: a registered name or an IPv4 address (RFC 3986's
     * reg-name characters without percent-encodings, which no DNS name holds) or a bracketed IPv6 one, then an
     * optional port of 1-5 digits; no user information, no space or control character. nginx refuses a Host with a
     * space or a control character too; passed on, such a value reaches the upstream in {@code Host} ({@code
     * preserveHost}), {@code X-Forwarded-Host} and {@code Forwarded}, where applications build links from it.
     */
    static boolean isAuthority(String authority) {
        int hostEnd;
        if (!authority.isEmpty() && authority.charAt(0) == '[') {
            hostEnd = authority.indexOf(']') + 1;
            try {
                UriValidator.validateIpLiteral(authority.substring(0, Math.max(hostEnd, 1)));
            } catch (IllegalArgumentException e) {
                return false;
            }
        } else {
            hostEnd = authority.length();
            for (int i = 0; i < authority.length(); i++) {
                char c = authority.charAt(i);
                if (c == ':') {
                    hostEnd = i;
                    break;
                }
                if (!isRegNameChar(c)) {
                    return false;
                }
            }
            if (hostEnd == 0) {
                return false;
            }
        }
        if (hostEnd == authority.length()) {
            return true;
        }
        int digits = authority.length() - hostEnd - 1;
        if (authority.charAt(hostEnd) != ':' || digits < 1 || digits > 5) {
            return false;
        }
        for (int i = hostEnd + 1; i < authority.length(); i++) {
            char c = authority.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    // RFC 3986: unreserved and sub-delims
    private static boolean isRegNameChar(char c) {
        return isUnreserved(c) || (c < 0x7F && "!$&'()*+,;=".indexOf(c) >= 0);
    }

    /** @param raw the path as it came on the request line (no query) */
    static String normalize(String raw) throws InvalidPathException {
        if (raw.isEmpty() || raw.charAt(0) != '/') {
            throw new InvalidPathException("The path must start with '/'");
        }
        return needsWork(raw) ? removeDotSegments(decodeUnreserved(raw)) : raw;
    }

    /**
     * Refuses a query holding what nginx refuses in a request target, a control character, and what cannot be relayed
     * as it came, bytes outside ASCII (Helidon decodes the request line as US-ASCII, so they are lost). Anything else
     * passes as it came, RFC 3986 or not ({@code [ ] { } |}, a stray {@code %}): the query is the upstream's business.
     */
    static void checkQuery(String rawQuery) throws InvalidPathException {
        for (int i = 0; i < rawQuery.length(); i++) {
            checkChar(rawQuery.charAt(i));
        }
    }

    private static void checkChar(char c) throws InvalidPathException {
        if (c <= ' ' || c == 0x7F) {
            throw new InvalidPathException("The request target holds a control character or a space");
        }
        if (c > 0x7F) {
            throw new InvalidPathException("The request target holds bytes outside ASCII; percent-encode them");
        }
    }

    /**
     * Most paths have no percent sign, backslash, semicolon or segment starting with a dot: nothing to do. Every char
     * is looked at, for those {@link #checkChar} refuses.
     */
    private static boolean needsWork(String raw) throws InvalidPathException {
        boolean work = false;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c <= ' ' || c >= 0x7F) {
                checkChar(c);
            }
            if (c == '%' || c == '\\' || c == ';' || (c == '.' && raw.charAt(i - 1) == '/')) {
                work = true;
            }
        }
        return work;
    }

    private static String decodeUnreserved(String raw) throws InvalidPathException {
        StringBuilder out = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '\\') {
                throw new InvalidPathException("The path must not contain a backslash");
            }
            if (c != '%') {
                out.append(c);
                continue;
            }
            int high = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
            int low = high >= 0 ? Character.digit(raw.charAt(i + 2), 16) : -1;
            if (low < 0) {
                throw new InvalidPathException("The path has a malformed percent-encoding");
            }
            int value = high * 16 + low;
            if (value == '/' || value == '\\') {
                throw new InvalidPathException("The path must not contain an encoded slash or backslash");
            }
            if (value == 0) {
                throw new InvalidPathException("The path must not contain an encoded NUL (%00)"); // as nginx refuses it
            }
            if (isUnreserved(value)) {
                out.append((char) value);
            } else {
                out.append('%').append(HEX[high]).append(HEX[low]);
            }
            i += 2;
        }
        return out.toString();
    }

    private static boolean isUnreserved(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~';
    }

    private static String removeDotSegments(String path) throws InvalidPathException {
        String[] segments = path.substring(1).split("/", -1);
        String[] kept = new String[segments.length];
        int depth = 0;
        boolean trailingSlash = false;
        for (String segment : segments) {
            trailingSlash = false;
            if (segment.equals(".")) {
                trailingSlash = true;
            } else if (segment.equals("..")) {
                if (depth == 0) {
                    throw new InvalidPathException("The path climbs above the root");
                }
                depth--;
                trailingSlash = true;
            } else if (segment.startsWith(".;") || segment.startsWith("..;")) {
                throw new InvalidPathException("The path has a dot-segment with parameters");
            } else {
                kept[depth++] = segment;
            }
        }
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < depth; i++) {
            out.append('/').append(kept[i]);
        }
        if (trailingSlash || out.isEmpty()) {
            out.append('/');
        }
        return out.toString();
    }
}
