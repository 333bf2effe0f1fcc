package io.pylon.gateway.model;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Set;

/**
 * How a proxy forwards, beyond where to: the data plane's per-route switches. Immutable.
 *
 * @param preserveHost      send the client's {@code Host} upstream instead of the upstream's own (nginx's
 *                          {@code proxy_set_header Host $host})
 * @param rewriteLocation   rewrite a {@code Location} or {@code Content-Location} that points at the upstream to the
 *                          address the client used (nginx's {@code proxy_redirect default}); on by default
 * @param maxRequestBody    the largest request body in bytes; {@link #POD_DEFAULT}: the pod's setting; 0: no limit
 * @param responseBuffering read a response of unknown length whole (up to a bound) before sending it, with its
 *                          length, so the upstream connection is free sooner; off: stream as it comes
 * @param retries           what is tried again, and for how long
 * @param healthCheck       an HTTP probe of each upstream beside the TCP re-check of failed ones; null: none
 * @param upstreamTls       how {@code https://} upstreams are trusted, named and authenticated to
 *                          ({@link UpstreamTls#DEFAULTS}: the JDK's trust store, verified, no client certificate)
 * @param upstreamHttp2     requests reach the upstreams over HTTP/2, many at once on one connection: h2c with prior
 *                          knowledge for {@code http://}, ALPN {@code h2} for {@code https://} (gRPC needs it); off:
 *                          HTTP/1.1
 */
public record Forwarding(boolean preserveHost, boolean rewriteLocation, long maxRequestBody, boolean responseBuffering,
                         Retries retries, @Nullable HealthCheck healthCheck, UpstreamTls upstreamTls,
                         boolean upstreamHttp2) {
    /** {@link #maxRequestBody()} when the proxy does not set one. */
    public static final long POD_DEFAULT = -1;

    public static final Forwarding DEFAULTS = new Forwarding(false, true, POD_DEFAULT, false, Retries.NONE, null,
            UpstreamTls.DEFAULTS, false);

    public Forwarding {
        retries = retries == null ? Retries.NONE : retries;
        upstreamTls = upstreamTls == null ? UpstreamTls.DEFAULTS : upstreamTls;
    }

    /** The same switches without upstream TLS settings. */
    public Forwarding(boolean preserveHost, boolean rewriteLocation, long maxRequestBody, boolean responseBuffering,
                      Retries retries, HealthCheck healthCheck) {
        this(preserveHost, rewriteLocation, maxRequestBody, responseBuffering, retries, healthCheck,
                UpstreamTls.DEFAULTS, false);
    }

    /**
     * A {@code GET path} to each upstream every {@code interval}: an answer from 200 to 399 within {@code timeout} is
     * a success. After {@code unhealthyThreshold} failures in a row the upstream is skipped by round robin (tried
     * only when all are down), after {@code healthyThreshold} successes in a row it is taken back.
     */
    public record HealthCheck(String path, Duration interval, Duration timeout, int healthyThreshold,
                              int unhealthyThreshold) {
    }

    /**
     * Further attempts of an idempotent request (GET, HEAD, OPTIONS, PUT, DELETE, TRACE) without a body, over the
     * proxy's upstreams in turn: after a failed connection, or an answer with one of {@code onStatus}, while
     * {@code within} has not passed since the first attempt.
     */
    public record Retries(int attempts, Set<Integer> onStatus, Duration within) {
        public static final Retries NONE = new Retries(0, Set.of(), Duration.ZERO);

        public Retries {
            onStatus = Set.copyOf(onStatus);
        }
    }
}
