package io.pylon.portal;

import java.net.URI;
import java.util.Locale;

/**
 * Where the Portal's pages may send requests besides the Portal itself: the origin of the environment's Workers, so
 * that "Try it" calls the real gateway (the Content-Security-Policy's {@code connect-src}). Learned from the Manager's
 * catalog, asked again at most every {@link #MAX_AGE_NANOS} when a page is served.
 *
 * <p>Threading: request threads read and replace the origin and the time it was learned (volatile fields); two threads
 * asking the Manager at once cost one call more and nothing else.
 */
final class ConnectSources {
    static final long MAX_AGE_NANOS = 30_000_000_000L;

    private volatile String workerOrigin;
    private volatile long learnedAt = Long.MIN_VALUE;

    boolean stale() {
        return learnedAt == Long.MIN_VALUE || System.nanoTime() - learnedAt > MAX_AGE_NANOS;
    }

    /** Takes the Worker URL the Manager named; a URL that is no http(s) origin is not admitted. */
    void learned(String workerUrl) {
        workerOrigin = origin(workerUrl);
        learnedAt = System.nanoTime();
    }

    String csp() {
        String worker = workerOrigin;
        return PortalPages.CSP.replace("connect-src 'self'", "connect-src 'self'" + (worker == null ? "" : " " + worker));
    }

    static String origin(String url) {
        try {
            URI uri = URI.create(url.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                return null;
            }
            return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (uri.getPort() == -1 ? "" : ":" + uri.getPort());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
