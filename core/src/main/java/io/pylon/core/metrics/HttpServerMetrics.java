package io.pylon.core.metrics;

import io.helidon.http.HttpException;
import io.helidon.http.Method;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pylon.core.http.ListenerProbe;
import io.pylon.core.http.OpenClientConnections;
import io.pylon.core.http.RouteTimer;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The HTTP server's meters: {@code http_server_requests_seconds{route,method,status}}, a histogram per route
 * template as registered (never the request's own path), method (unknown methods as {@code OTHER}) and status class
 * ({@code 2xx}...), and {@code http_server_connections_open} (counted in the background every few seconds). Handlers are wrapped where they are registered, so the
 * label values are bounded by the routes the code declares. Thread-safe: timers are created once per label set in a
 * concurrent map and then only looked up.
 */
public final class HttpServerMetrics implements RouteTimer {
    static final String NAME = "http.server.requests";
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS",
            "TRACE", "CONNECT");
    private static final String[] STATUS_CLASSES = {"1xx", "2xx", "3xx", "4xx", "5xx"};
    /** Bucket bounds of every latency histogram of the platform: from a cached answer to a slow upstream. */
    public static final Duration[] LATENCY_BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10),
            Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
            Duration.ofSeconds(10), Duration.ofSeconds(30)};

    private final PodMetrics metrics;
    // by route template, then method: a handler holds its template's map, so a request builds no key
    private final Map<String, Map<String, Timer[]>> timers = new ConcurrentHashMap<>();
    /** How often the open connections are counted. */
    static final Duration CONNECTIONS_PERIOD = Duration.ofSeconds(5);
    // written by the maintenance executor, read by scrapes
    private volatile int openConnections = -1;

    /**
     * @param port        the listening port, once bound
     * @param maintenance counts the open connections every {@link #CONNECTIONS_PERIOD}: reading the kernel's socket
     *                    tables costs milliseconds of system time, too much for every scrape
     */
    public HttpServerMetrics(PodMetrics metrics, IntSupplier port, ScheduledExecutorService maintenance) {
        this.metrics = metrics;
        if (metrics.enabled()) {
            Gauge.builder("http.server.connections.open", this, m -> m.openConnections)
                    .description("Established client connections of the server, counted every "
                            + CONNECTIONS_PERIOD.toSeconds() + " s (-1 where /proc is not readable)")
                    .register(metrics.registry());
            maintenance.scheduleWithFixedDelay(() -> openConnections = OpenClientConnections.count(port.getAsInt()).orElse(-1),
                    0, CONNECTIONS_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The handler, timed under the route template; the handler itself when metrics are disabled. */
    @Override
    public Handler timed(String routeTemplate, Handler handler) {
        if (!metrics.enabled()) {
            return handler;
        }
        Map<String, Timer[]> byMethod = timers.computeIfAbsent(routeTemplate, route -> new ConcurrentHashMap<>());
        return (req, res) -> {
            long t0 = System.nanoTime();
            int status = 500;
            try {
                handler.handle(req, res);
                status = res.status().code();
            } catch (HttpException e) {
                status = e.status().code();
                throw e;
            } finally {
                if (!ListenerProbe.isProbe(req)) {
                    timer(byMethod, routeTemplate, method(req), status).record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
                }
            }
        };
    }

    private Timer timer(Map<String, Timer[]> byMethod, String route, String method, int status) {
        int statusClass = Math.min(Math.max(status / 100, 1), 5) - 1;
        Timer[] byStatus = byMethod.get(method);
        if (byStatus == null) {
            byStatus = byMethod.computeIfAbsent(method, key -> new Timer[STATUS_CLASSES.length]);
        }
        Timer timer = byStatus[statusClass];
        if (timer == null) {
            timer = register(metrics.registry(), route, method, STATUS_CLASSES[statusClass]);
            byStatus[statusClass] = timer; // a race registers the same meter twice: the registry returns the one it has
        }
        return timer;
    }

    private static Timer register(MeterRegistry registry, String route, String method, String status) {
        return Timer.builder(NAME)
                .description("Requests the server answered, by route template, method and status class")
                .tags("route", route, "method", method, "status", status)
                .serviceLevelObjectives(LATENCY_BUCKETS)
                .register(registry);
    }

    private static String method(ServerRequest req) {
        Method method = req.prologue().method();
        String text = method.text();
        return METHODS.contains(text) ? text : "OTHER";
    }
}
