package io.pylon.worker.proxy;

import io.helidon.webserver.ConnectionContext;

import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLSocket;

/**
 * The WebSocket tunnels open on this pod, their counts and meters, the selector that relays the plain ones
 * ({@link WebSocketRelay}), and the idle sweep: every second (a quarter of the timeout when that is shorter; on the
 * maintenance executor) a tunnel that carried nothing either way for the idle timeout is closed on both sides.
 *
 * <p>Threading: tunnels register and leave from their own threads (a concurrent set and atomic counters); the
 * sweep and diagnostics read concurrently.
 */
public final class WebSocketTunnels implements AutoCloseable {
    private final Set<WebSocketTunnel> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger reserved = new AtomicInteger();
    private final Duration idleTimeout;
    private final int maxTunnels;
    private final WebSocketRelay relay = new WebSocketRelay();
    final LongAdder opened = new LongAdder();
    final LongAdder refusedUpgrades = new LongAdder();
    final LongAdder closedIdle = new LongAdder();
    final LongAdder overLimit = new LongAdder();
    final LongAdder bytesFromClients = new LongAdder();
    final LongAdder bytesFromUpstreams = new LongAdder();

    public WebSocketTunnels(Duration idleTimeout, int maxTunnels, ScheduledExecutorService maintenance,
                            io.micrometer.core.instrument.MeterRegistry registry) {
        this.idleTimeout = idleTimeout;
        this.maxTunnels = maxTunnels;
        long sweep = Math.min(1000, Math.max(50, idleTimeout.toMillis() / 4));
        maintenance.scheduleWithFixedDelay(this::sweep, sweep, sweep, TimeUnit.MILLISECONDS);
        io.micrometer.core.instrument.Gauge.builder("pylon.worker.websocket.tunnels", open, Set::size)
                .description("WebSocket tunnels open").register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("pylon.worker.websocket.tunnels.opened", opened,
                LongAdder::sum).description("WebSocket tunnels opened (upstream answered 101)").register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("pylon.worker.websocket.tunnels.idle.closed", closedIdle,
                LongAdder::sum).description("WebSocket tunnels closed by the idle timeout").register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("pylon.worker.websocket.upgrades.refused",
                refusedUpgrades, LongAdder::sum).description("WebSocket upgrades the upstream answered without 101")
                .register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("pylon.worker.websocket.bytes", bytesFromClients,
                LongAdder::sum).tag("from", "client").baseUnit("bytes").description("Bytes relayed by WebSocket tunnels")
                .register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("pylon.worker.websocket.bytes", bytesFromUpstreams,
                LongAdder::sum).tag("from", "upstream").baseUnit("bytes").description("Bytes relayed by WebSocket tunnels")
                .register(registry);
    }

    /**
     * The tunnel for a client connection whose upgrade the upstream accepted: relayed by the selector when neither
     * end speaks TLS and Helidon's client socket can be taken over ({@link ClientChannel}), else by two threads.
     *
     * @param upstreamLeftover bytes the upstream sent right after its 101, already read with the handshake
     */
    WebSocketTunnel tunnel(ConnectionContext client, Socket upstream, byte[] upstreamLeftover) {
        SocketChannel upstreamChannel = upstream instanceof SSLSocket ? null : upstream.getChannel();
        SocketChannel clientChannel = upstreamChannel == null ? null : ClientChannel.takeOver(client.serverSocket());
        if (upstreamChannel != null && clientChannel != null) {
            return new RelayedWebSocketTunnel(clientChannel, client.dataReader(), upstreamChannel, upstreamLeftover,
                    this, relay);
        }
        return new ThreadedWebSocketTunnel(client, upstream, upstreamLeftover, this);
    }

    /** Takes a place for a tunnel about to be opened; false when the pod holds its maximum. */
    boolean reserve() {
        if (reserved.incrementAndGet() > maxTunnels) {
            reserved.decrementAndGet();
            overLimit.increment();
            return false;
        }
        return true;
    }

    /** Gives back a place taken by {@link #reserve()} (the tunnel did not open, or it closed). */
    void release() {
        reserved.decrementAndGet();
    }

    void add(WebSocketTunnel tunnel) {
        opened.increment();
        open.add(tunnel);
    }

    void remove(WebSocketTunnel tunnel) {
        if (open.remove(tunnel)) {
            release();
        }
    }

    public int open() {
        return open.size();
    }

    public long opened() {
        return opened.sum();
    }

    void sweep() {
        long now = System.nanoTime();
        for (WebSocketTunnel tunnel : open) {
            if (now - tunnel.lastActivity() > idleTimeout.toNanos()) {
                closedIdle.increment();
                tunnel.close(true);
            }
        }
    }

    /** Closes the tunnels the selector relays (the others end with their connections). */
    @Override
    public void close() {
        relay.close();
    }

    /** For the {@code connections} section. */
    public Map<String, Object> describe() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("open", open.size());
        map.put("relayedBySelector", open.stream().filter(RelayedWebSocketTunnel.class::isInstance).count());
        map.put("max", maxTunnels);
        map.put("opened", opened.sum());
        map.put("refusedByUpstream", refusedUpgrades.sum());
        map.put("refusedOverMax", overLimit.sum());
        map.put("closedIdle", closedIdle.sum());
        map.put("idleTimeout", idleTimeout.toString());
        map.put("bytesFromClients", bytesFromClients.sum());
        map.put("bytesFromUpstreams", bytesFromUpstreams.sum());
        return map;
    }
}
