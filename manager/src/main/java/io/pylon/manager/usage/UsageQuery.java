package io.pylon.manager.usage;

import io.helidon.webserver.http.ServerRequest;
import io.pylon.manager.api.ApiException;
import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One usage question as callers ask it ({@code from}, {@code to}: instants, by default the last hour; at most a day
 * apart and within the retention) and its answer: per minute, and per application or proxy. Stateless.
 */
public final class UsageQuery {
    static final Duration DEFAULT_SPAN = Duration.ofHours(1);
    static final Duration MAX_SPAN = Duration.ofDays(1);

    private final UsageStore store;
    private final Clock clock;
    private final Duration retention;

    public UsageQuery(UsageStore store, Clock clock, Duration retention) {
        this.store = store;
        this.clock = clock;
        this.retention = retention;
    }

    /** The window {@code [from, to)} of the request, whole minutes. */
    public record Window(Instant from, Instant to) {
    }

    public Window window(ServerRequest req) {
        Instant now = clock.instant();
        Instant to = instant(req, "to", now.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1)));
        Instant from = instant(req, "from", to.minus(DEFAULT_SPAN));
        if (!from.isBefore(to)) {
            throw ApiException.badField("from", "Parameter 'from' must be before 'to'.");
        }
        if (Duration.between(from, to).compareTo(MAX_SPAN) > 0) {
            throw ApiException.badField("from", "At most " + MAX_SPAN.toHours() + " hours of usage at once; page "
                    + "with 'from' and 'to'.");
        }
        if (to.isBefore(now.minus(retention))) {
            throw ApiException.badField("to", "Usage is kept " + retention.toDays() + " days; 'to' is older.");
        }
        return new Window(from, to);
    }

    private static Instant instant(ServerRequest req, String name, Instant otherwise) {
        String text = req.query().first(name).orElse(null);
        if (text == null) {
            return otherwise;
        }
        try {
            return Instant.parse(text).truncatedTo(ChronoUnit.MINUTES);
        } catch (DateTimeParseException e) {
            throw ApiException.badField(name, "Parameter '" + name + "' must be an instant such as "
                    + "2026-01-31T12:00:00Z.");
        }
    }

    /**
     * {@code {from, to, totals, minutes: [...], <breakdown>: [...]}} for the proxy and/or application given.
     *
     * @param breakdown {@link UsageStore.GroupBy#APPLICATION} or {@link UsageStore.GroupBy#PROXY}
     */
    public Map<String, Object> answer(Window window, @Nullable String proxy, @Nullable String application,
                                      UsageStore.GroupBy breakdown) {
        List<UsageStore.Sum> minutes = store.sums(UsageStore.GroupBy.MINUTE, proxy, application, window.from(),
                window.to());
        List<UsageStore.Sum> groups = store.sums(breakdown, proxy, application, window.from(), window.to());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("from", window.from().toString());
        json.put("to", window.to().toString());
        json.put("totals", sum(null, null, minutes));
        json.put("minutes", minutes.stream().map(m -> sum("minute", m.group(), List.of(m))).toList());
        String key = breakdown == UsageStore.GroupBy.APPLICATION ? "application" : "proxy";
        json.put(breakdown == UsageStore.GroupBy.APPLICATION ? "applications" : "proxies",
                groups.stream().map(g -> {
                    Map<String, Object> row = sum(key, g.group(), List.of(g));
                    if (breakdown == UsageStore.GroupBy.APPLICATION) {
                        row.put("name", g.name());
                    }
                    return row;
                }).toList());
        return json;
    }

    private static Map<String, Object> sum(@Nullable String key, @Nullable String value, List<UsageStore.Sum> sums) {
        long requests = 0;
        long clientErrors = 0;
        long serverErrors = 0;
        long latencySum = 0;
        long latencyMax = 0;
        for (UsageStore.Sum s : sums) {
            requests += s.requests();
            clientErrors += s.clientErrors();
            serverErrors += s.serverErrors();
            latencySum += s.latencyMicrosSum();
            latencyMax = Math.max(latencyMax, s.latencyMicrosMax());
        }
        Map<String, Object> json = new LinkedHashMap<>();
        if (key != null) {
            json.put(key, value);
        }
        json.put("requests", requests);
        json.put("errors", clientErrors + serverErrors);
        json.put("clientErrors", clientErrors);
        json.put("serverErrors", serverErrors);
        json.put("latencyMsAvg", requests == 0 ? 0.0 : Math.round(latencySum / (double) requests) / 1000.0);
        json.put("latencyMsMax", latencyMax / 1000.0);
        return json;
    }
}
