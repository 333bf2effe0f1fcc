import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import io.pylon.cache.CacheModule;
import io.pylon.cache.client.GridClient;
import io.pylon.core.config.Settings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Grid trust and heap-dump stall benchmark, run by bench/hostile/run.sh. One real Cache pod on 127.15.0.1 in this JVM.
 *   join:  what a viewer sees of the grid (the datagrid section the Manager console shows) given to a stock Hazelcast
 *          client as its cluster name, plus the name format of earlier versions and Hazelcast's default; then the
 *          Worker's own grid client. Prints joined yes/no and how long the refusal took.
 *   stall: a raw-socket client asks for a heap dump, reads 4 KiB, stops reading; time until the next heap dump is
 *          accepted (the permit is back), over several rounds; the stall timeout is the first argument.
 */
public final class GridJoin {
    static final String ENV_ID = "hostile-bench-" + Long.toHexString(System.nanoTime()) + "-0123456789";
    static final String ADDRESS = "127.15.0.1";
    static final HttpClient HTTP = HttpClient.newHttpClient();

    public static void main(String[] args) throws Exception {
        String stallTimeout = args.length > 0 ? args[0] : "5s";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int gridPort = freePort();
        Map<String, String> s = new HashMap<>();
        s.put("pylon.server.bind", ADDRESS);
        s.put("pylon.server.port", "0");
        s.put("pylon.pod.name", "hostile-cache-0");
        s.put("pylon.environment.name", "bench");
        s.put("pylon.environment.id", ENV_ID);
        s.put("pylon.data.dir", Files.createTempDirectory("pylon-hostile").toString());
        s.put("pylon.grid.port", String.valueOf(gridPort));
        s.put("pylon.grid.members", ADDRESS + ":" + gridPort);
        s.put("pylon.diagnostics.heap-dump.stall-timeout", stallTimeout);
        Pod pod = PodServer.start(new CacheModule(), Settings.of(s));
        try {
            join(pod, ADDRESS + ":" + gridPort);
            stall(pod, stallTimeout, rounds);
        } finally {
            pod.stop();
        }
        System.exit(0);
    }

    static void join(Pod pod, String member) throws Exception {
        HttpResponse<String> datagrid = HTTP.send(HttpRequest.newBuilder(
                        URI.create(base(pod) + "/platform/diagnostics/datagrid?internal=true"))
                .header("Authorization", ENV_ID).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode section = new ObjectMapper().readTree(datagrid.body()).path("datagrid");
        String label = section.path("clusterLabel").asText();
        System.out.println("viewer sees: clusterLabel=" + label + ", clusterName field present: " + section.has("clusterName"));
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(ENV_ID.getBytes(StandardCharsets.UTF_8));
        Map<String, String> guesses = new java.util.LinkedHashMap<>();
        guesses.put("the label a viewer sees", label);
        guesses.put("the name format of earlier versions", "pylon-bench-" + HexFormat.of().formatHex(digest, 0, 6));
        guesses.put("Hazelcast's default", "dev");
        System.out.println("| stock client's cluster name | joined | refused after ms |");
        System.out.println("|---|---|---:|");
        for (Map.Entry<String, String> guess : guesses.entrySet()) {
            ClientConfig config = new ClientConfig();
            config.setClusterName(guess.getValue());
            config.getNetworkConfig().addAddress(member);
            config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(2000);
            long t0 = System.nanoTime();
            String joined;
            try {
                HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
                client.getMap("pylon-counters").clear();
                client.shutdown();
                joined = "YES";
            } catch (IllegalStateException e) {
                joined = "no";
            }
            System.out.printf("| %s | %s | %d |%n", guess.getKey(), joined, (System.nanoTime() - t0) / 1_000_000);
        }
        long t0 = System.nanoTime();
        try (GridClient worker = GridClient.start(Settings.of(Map.of("pylon.environment.name", "bench",
                "pylon.environment.id", ENV_ID, "pylon.cache.addresses", member)))) {
            while (!worker.state().name().equals("CONNECTED") && System.nanoTime() - t0 < 30_000_000_000L) {
                Thread.sleep(20);
            }
            System.out.printf("| the Worker's client (holds the environment ID) | %s | connected after %d |%n",
                    worker.state().name().equals("CONNECTED") ? "yes" : "NO", (System.nanoTime() - t0) / 1_000_000);
        }
    }

    static void stall(Pod pod, String stallTimeout, int rounds) throws Exception {
        List<Long> freed = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            try (Socket stalled = new Socket()) {
                stalled.setReceiveBufferSize(4096);
                stalled.connect(new InetSocketAddress(ADDRESS, pod.port()));
                OutputStream out = stalled.getOutputStream();
                out.write(("GET /platform/diagnostics/heapdump?live=false HTTP/1.1\r\nHost: x\r\nAuthorization: " + ENV_ID
                        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                InputStream in = stalled.getInputStream();
                String status = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
                if (!status.equals("HTTP/1.1 200")) {
                    throw new IllegalStateException("round " + round + ": the stalling reader's dump got " + status);
                }
                in.readNBytes(4096);
                long stalledAt = System.nanoTime();
                while (true) {
                    HttpResponse<InputStream> next = HTTP.send(HttpRequest.newBuilder(
                                    URI.create(base(pod) + "/platform/diagnostics/heapdump"))
                            .header("Authorization", ENV_ID).build(), HttpResponse.BodyHandlers.ofInputStream());
                    if (next.statusCode() == 200) {
                        freed.add((System.nanoTime() - stalledAt) / 1_000_000);
                        try (InputStream body = next.body()) {
                            body.transferTo(OutputStream.nullOutputStream());
                        }
                        break;
                    }
                    next.body().close();
                    Thread.sleep(100);
                }
            }
        }
        List<Long> sorted = freed.stream().sorted().toList();
        System.out.println("heap-dump stall (stall timeout " + stallTimeout + "): ms from the reader's stall until the next dump"
                + " was accepted, per round " + freed + ", median " + sorted.get(sorted.size() / 2));
    }

    static String base(Pod pod) {
        return "http://" + ADDRESS + ":" + pod.port();
    }

    static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(ADDRESS), 0));
            return socket.getLocalPort();
        }
    }
}
