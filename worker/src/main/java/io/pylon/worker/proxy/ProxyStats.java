package io.pylon.worker.proxy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of what the proxy did with requests, for the {@code connections} diagnostics, and the {@link ProxyMeters}
 * the stages record into. Thread-safe: adders.
 */
public final class ProxyStats {
    final ProxyMeters meters;
    final LongAdder forwarded = new LongAdder();
    final LongAdder badGateway = new LongAdder();
    final LongAdder gatewayTimeout = new LongAdder();
    final LongAdder poolExhausted = new LongAdder();
    final LongAdder rateLimited = new LongAdder();
    final LongAdder rateLimitUnavailable = new LongAdder();
    final LongAdder noRoute = new LongAdder();
    final LongAdder badRequest = new LongAdder();
    final LongAdder clientAborted = new LongAdder();
    final LongAdder upstreamAborted = new LongAdder();

    /** Counts only, no meters. */
    public ProxyStats() {
        this(ProxyMeters.disabled());
    }

    public ProxyStats(ProxyMeters meters) {
        this.meters = meters;
        meters.bindErrors(this);
    }

    public Map<String, Object> describe() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("forwarded", forwarded.sum());
        map.put("badGateway", badGateway.sum());
        map.put("gatewayTimeout", gatewayTimeout.sum());
        map.put("poolExhausted", poolExhausted.sum());
        map.put("rateLimited", rateLimited.sum());
        map.put("rateLimitUnavailable", rateLimitUnavailable.sum());
        map.put("noRoute", noRoute.sum());
        map.put("badRequest", badRequest.sum());
        map.put("clientAborted", clientAborted.sum());
        map.put("upstreamAborted", upstreamAborted.sum());
        return map;
    }
}
