import io.helidon.common.buffers.BufferData;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.websocket.WsRouting;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The WebSocket benchmark's processes (bench/worker/websocket.sh):
 *   upstream ADDR PORT          an echo server (Helidon's WebSocket module) at /ws/echo
 *   idle URL COUNT HOLD_SECONDS opens COUNT connections, prints "open N", holds them, closes them
 *   echo URL RATE SECONDS CONNS sends RATE messages/s spread over CONNS connections (open loop), prints p50/p99/max
 */
public class WsBench {
    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "upstream" -> upstream(args[1], Integer.parseInt(args[2]));
            case "idle" -> idle(URI.create(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            case "echo" -> echo(URI.create(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                    Integer.parseInt(args[4]));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static void upstream(String addr, int port) throws InterruptedException {
        WebServer.builder().host(addr).port(port).shutdownHook(true)
                .addRouting(WsRouting.builder().endpoint("/ws/echo", new WsListener() {
                    @Override
                    public void onMessage(WsSession session, String text, boolean last) {
                        session.send(text, last);
                    }

                    @Override
                    public void onMessage(WsSession session, BufferData buffer, boolean last) {
                        session.send(buffer, last);
                    }
                })).build().start();
        System.out.println("upstream ready");
        Thread.currentThread().join();
    }

    static void idle(URI uri, int count, int holdSeconds) throws Exception {
        HttpClient client = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(2)).build();
        List<WebSocket> open = new ArrayList<>(count);
        Semaphore inFlight = new Semaphore(50);
        AtomicInteger failed = new AtomicInteger();
        List<CompletableFuture<WebSocket>> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            inFlight.acquire();
            all.add(client.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(120))
                    .buildAsync(uri, new WebSocket.Listener() { })
                    .whenComplete((ws, e) -> {
                        inFlight.release();
                        if (e != null && failed.incrementAndGet() <= 3) {
                            System.err.println("connect failed: " + e);
                        }
                    }));
        }
        for (CompletableFuture<WebSocket> f : all) {
            try {
                open.add(f.get(180, TimeUnit.SECONDS));
            } catch (Exception e) {
                // counted above
            }
        }
        System.out.println("open " + open.size() + " failed " + failed.get());
        System.out.flush();
        Thread.sleep(holdSeconds * 1000L);
        for (WebSocket ws : open) {
            ws.abort();
        }
    }

    static void echo(URI uri, int rate, int seconds, int connections) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        ConcurrentLinkedQueue<Long> rtts = new ConcurrentLinkedQueue<>();
        List<WebSocket> sockets = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            sockets.add(client.newWebSocketBuilder().buildAsync(uri, new WebSocket.Listener() {
                private final StringBuilder message = new StringBuilder();

                @Override
                public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                    // a message may come in parts, as its frame's bytes arrive
                    message.append(data);
                    if (last) {
                        String text = message.toString();
                        message.setLength(0);
                        rtts.add(System.nanoTime() - Long.parseLong(text.substring(0, text.indexOf(' '))));
                    }
                    ws.request(1);
                    return null;
                }
            }).get(30, TimeUnit.SECONDS));
        }
        String padding = " " + "x".repeat(100);
        long interval = 1_000_000_000L / rate;
        long start = System.nanoTime();
        long total = (long) rate * seconds;
        for (long n = 0; n < total; n++) {
            long due = start + n * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            WebSocket ws = sockets.get((int) (n % connections));
            // the send time is the schedule's, not the actual one: a stalled sender counts its delay (open loop)
            synchronized (ws) {
                ws.sendText(due + padding, true).join();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (rtts.size() < total && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        long[] sorted = rtts.stream().mapToLong(Long::longValue).sorted().toArray();
        Arrays.sort(sorted);
        System.out.printf("messages %d received %d p50_ms %.3f p99_ms %.3f max_ms %.3f%n", total, sorted.length,
                at(sorted, 0.50), at(sorted, 0.99), sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6);
        for (WebSocket ws : sockets) {
            ws.abort();
        }
    }

    static double at(long[] sorted, double q) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
    }
}
