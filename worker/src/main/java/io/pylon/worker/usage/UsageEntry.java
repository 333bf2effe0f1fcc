package io.pylon.worker.usage;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** What one (application, proxy, minute) counted: requests, 4xx and 5xx answers, latency sum and maximum (µs). */
record UsageEntry(String application, String proxy, long minute, long requests, long clientErrors, long serverErrors,
                  long latencyMicrosSum, long latencyMicrosMax) {

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("application", application);
        json.put("proxy", proxy);
        json.put("minute", Instant.ofEpochSecond(minute * 60).toString());
        json.put("requests", requests);
        json.put("clientErrors", clientErrors);
        json.put("serverErrors", serverErrors);
        json.put("latencyMicrosSum", latencyMicrosSum);
        json.put("latencyMicrosMax", latencyMicrosMax);
        return json;
    }
}
