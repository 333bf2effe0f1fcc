package io.pylon.worker.proxy;

import io.pylon.gateway.model.Forwarding.HealthCheck;
import io.pylon.gateway.model.Route;
import io.pylon.gateway.model.Upstream;
import io.pylon.worker.routes.RouteTable;

import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * The routes' HTTP health checks: each upstream of a route with a {@code healthCheck} gets {@code GET path} every
 * interval on the async executor; after the unhealthy threshold of failures in a row its pool is marked down (round
 * robin skips it, as it skips one whose connections fail), after the healthy threshold of successes in a row it is
 * taken back. An upstream named by several checked routes follows the first route's check. A check that is removed
 * from the routes takes its mark away. Transitions are logged once.
 *
 * <p>Threading: {@link #run} is called by the maintenance thread; probes run on the async executor, one at a time per
 * upstream (a state's {@code inFlight} flag), and write the state's counters under its monitor.
 */
public final class UpstreamHealthChecks {
    private static final System.Logger LOG = System.getLogger(UpstreamHealthChecks.class.getName());

    private final UpstreamPools pools;
    private final Map<UpstreamPools.PoolKey, State> states = new ConcurrentHashMap<>();

    private static final class State {
        final UpstreamPool pool;
        HealthCheck check;
        long nextDue;
        boolean inFlight;
        int successes;
        int failures;

        State(UpstreamPool pool, HealthCheck check) {
            this.pool = pool;
            this.check = check;
        }
    }

    public UpstreamHealthChecks(UpstreamPools pools) {
        this.pools = pools;
    }

    /** Starts the probes that are due for the routes in {@code table} (null: none yet). */
    public void run(RouteTable table, ExecutorService async) {
        Set<UpstreamPools.PoolKey> checked = new HashSet<>();
        if (table != null) {
            for (Route route : table.routes()) {
                HealthCheck check = route.forwarding().healthCheck();
                if (check == null) {
                    continue;
                }
                for (Upstream upstream : route.upstreams()) {
                    UpstreamPool pool = pools.pool(upstream, route);
                    if (checked.add(pool.key())) {
                        State state = states.computeIfAbsent(pool.key(), o -> new State(pool, check));
                        startIfDue(state, check, async);
                    }
                }
            }
        }
        for (Map.Entry<UpstreamPools.PoolKey, State> entry : states.entrySet()) {
            if (!checked.contains(entry.getKey()) && states.remove(entry.getKey(), entry.getValue())) {
                entry.getValue().pool.checkedDown(false);
            }
        }
    }

    private static void startIfDue(State state, HealthCheck check, ExecutorService async) {
        long now = System.nanoTime();
        synchronized (state) {
            state.check = check;
            if (state.inFlight || now - state.nextDue < 0) {
                return;
            }
            state.inFlight = true;
            state.nextDue = now + check.interval().toNanos();
        }
        try {
            async.execute(() -> probe(state));
        } catch (RejectedExecutionException e) {
            synchronized (state) {
                state.inFlight = false; // the async pool is saturated: next round
            }
        }
    }

    private static void probe(State state) {
        HealthCheck check;
        synchronized (state) {
            check = state.check;
        }
        boolean ok = answers(state.pool.upstream(), state.pool.tls(), check);
        synchronized (state) {
            state.inFlight = false;
            if (ok) {
                state.successes++;
                state.failures = 0;
                if (state.pool.checkedDown() && state.successes >= check.healthyThreshold()) {
                    state.pool.checkedDown(false);
                    LOG.log(Level.INFO, "Upstream " + state.pool.origin() + " passes its health check again");
                }
            } else {
                state.failures++;
                state.successes = 0;
                if (!state.pool.checkedDown() && state.failures >= check.unhealthyThreshold()) {
                    state.pool.checkedDown(true);
                    LOG.log(Level.WARNING, "Upstream " + state.pool.origin() + " failed its health check "
                            + state.failures + " times in a row (GET " + check.path() + "); skipped by round robin");
                }
            }
        }
    }

    /** Whether {@code GET path} is answered with 200 to 399 within the check's timeout. */
    static boolean answers(Upstream upstream, @Nullable UpstreamTlsContext tls, HealthCheck check) {
        int timeout = (int) Math.min(Integer.MAX_VALUE, check.timeout().toMillis());
        long deadline = System.nanoTime() + check.timeout().toNanos();
        try (Socket plain = new Socket()) {
            plain.connect(UpstreamDns.INSTANCE.address(upstream.host(), upstream.port(), Timeout.ofMilliseconds(timeout)),
                    timeout);
            Socket socket = plain;
            socket.setSoTimeout(timeout);
            if (upstream.scheme().equals("https")) {
                socket = tls != null ? tls.handshake(plain, upstream.host(), upstream.port())
                        : UpstreamTlsContext.handshakeDefault(plain, upstream.host(), upstream.port());
            }
            String host = upstream.host().contains(":") ? "[" + upstream.host() + "]" : upstream.host();
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + upstream.basePath() + check.path() + " HTTP/1.1\r\nHost: " + host + ":" + upstream.port()
                    + "\r\nUser-Agent: pylon-health-check\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String statusLine = readLine(socket.getInputStream(), deadline);
            String[] parts = statusLine.split(" ");
            if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
                return false;
            }
            int status = Integer.parseInt(parts[1]);
            return status >= 200 && status < 400;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static String readLine(InputStream in, long deadline) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b; (b = in.read()) >= 0 && b != '\n'; ) {
            if (line.length() > 1024 || System.nanoTime() - deadline > 0) {
                throw new IOException("status line too long or too slow");
            }
            line.append((char) b);
        }
        return line.toString().strip();
    }
}
