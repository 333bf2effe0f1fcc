package io.pylon.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code pylon up} in a child JVM of the test's class path, on the loopback block its caller owns (so that a
 * {@code ./pylon up} on 127.0.0.1-7 is left alone), with its output collected and its {@code cluster.json} read once it
 * is written. {@link #close()} kills it and every pod it started, whatever state the test left them in.
 *
 * <p>Threading: one virtual thread appends the child's output to a {@link StringBuffer}; the test's thread reads it.
 */
public final class UpProcess implements AutoCloseable {
    /** The developer account {@code pylon up} creates on the Portal. */
    public static final String DEVELOPER = LocalEnvironment.DEVELOPER;
    /** The sample API with keys {@code pylon up} publishes to the Portal, and its path prefix on the Workers. */
    public static final String KEYED_SAMPLE = KeyedSampleProxy.NAME;
    public static final String KEYED_SAMPLE_PREFIX = KeyedSampleProxy.PREFIX;

    private final StringBuffer output = new StringBuffer();
    private final Process up;
    private final List<Long> podPids = new ArrayList<>();

    private UpProcess(Process up) {
        this.up = up;
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(up.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    output.append(line).append('\n');
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
    }

    /**
     * Starts {@code pylon up --state-dir state --first-address firstAddress} with extra environment variables (which its
     * pods inherit), small pod JVMs and no class-data-sharing archives (a temp dir would only be written at exit).
     */
    public static UpProcess start(Path state, String firstAddress, int startTimeoutSeconds, Map<String, String> environment)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(java(), "-cp", System.getProperty("java.class.path"),
                PylonCli.class.getName(), "up", "--state-dir", state.toString(), "--start-timeout",
                String.valueOf(startTimeoutSeconds), "--first-address", firstAddress)
                .redirectErrorStream(true);
        builder.environment().put("PYLON_POD_JAVA_OPTS", "-XX:+UseSerialGC -Xms16m -XX:TieredStopAtLevel=1");
        builder.environment().putAll(environment);
        return new UpProcess(builder.start());
    }

    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /** cluster.json once {@code pylon up} wrote it (after the sample API and the Portal are set up), waiting up to {@code seconds}. */
    public JsonNode awaitCluster(Path state, int seconds) throws IOException, InterruptedException {
        Path cluster = state.resolve("cluster.json");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!Files.exists(cluster) && up.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        if (!Files.exists(cluster)) {
            throw new IllegalStateException("no cluster.json after " + seconds + " s; output so far:\n" + output);
        }
        JsonNode root = Json.MAPPER.readTree(cluster.toFile());
        root.path("modules").forEach(module -> module.path("pods").forEach(pod -> podPids.add(pod.path("pid").asLong())));
        return root;
    }

    /** The first pod's URL of a module in cluster.json. */
    public static String url(JsonNode cluster, String module) {
        return cluster.path("modules").path(module).path("pods").get(0).path("url").asText();
    }

    /** Every pod's URL of a module in cluster.json. */
    public static List<String> urls(JsonNode cluster, String module) {
        List<String> urls = new ArrayList<>();
        cluster.path("modules").path(module).path("pods").forEach(pod -> urls.add(pod.path("url").asText()));
        return urls;
    }

    public String output() {
        return output.toString();
    }

    public Process process() {
        return up;
    }

    /** The pods' process ids read from cluster.json. */
    public List<Long> podPids() {
        return List.copyOf(podPids);
    }

    @Override
    public void close() {
        if (up.isAlive()) {
            up.destroyForcibly();
        }
        podPids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }
}
