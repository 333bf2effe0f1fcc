package io.pylon.manager.console;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.http.ErrorBody;
import io.pylon.core.http.Json;
import io.pylon.core.http.PodPaths;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP pod on loopback that answers {@code /platform/diagnostics/<name>} the way Worker and Cache pods do
 * (environment ID in Authorization, broadcast {@code pods[]} shape, binary heap dump), so that the console's proxy is
 * tested over the wire without the Worker module on the Manager's classpath.
 */
final class DiagnosticsUpstream implements AutoCloseable {
    static final int HEAP_DUMP_SIZE = 6 * 1024 * 1024;

    private final Pod pod;
    /** The heap dump sends its first megabyte, then waits for this before sending the rest. */
    final CountDownLatch releaseHeapDump = new CountDownLatch(1);
    volatile String lastQuery = "";

    DiagnosticsUpstream() {
        FakeModule module = new FakeModule("worker");
        module.onStart(context -> context.routes().get(PodPaths.defaults().diagnostics("{name}"), this::answer));
        this.pod = TestPods.start(module, "upstream-worker", Map.of());
    }

    String url() {
        return TestPods.baseUrl(pod);
    }

    private void answer(ServerRequest req, ServerResponse res) {
        if (!TestPods.ENVIRONMENT_ID.equals(req.headers().first(HeaderNames.AUTHORIZATION).orElse(null))) {
            ErrorBody.send(res, Status.UNAUTHORIZED_401, "unauthorized", "Authorization must carry the environment ID.");
            return;
        }
        lastQuery = req.query().rawValue();
        String name = req.path().pathParameters().get("name");
        switch (name) {
            case "heapdump" -> heapDump(res);
            case "compare" -> Json.send(res, Map.of("outliers", List.of(), "drift", Map.of("drifted", true,
                    "env", List.of(Map.of("name", "LOG_LEVEL", "masked", false, "groups", List.of(
                            Map.of("hash", "0123456789ab", "value", "INFO", "pods", List.of("upstream-0")),
                            Map.of("hash", "ba9876543210", "value", "DEBUG", "pods", List.of("upstream-1")))))),
                    "pods", List.of()));
            case "jvm", "env", "all" -> Json.send(res, Map.of("pods", List.of(podObject("upstream-0", name),
                    Map.of("podName", "upstream-1", "podIp", "127.0.0.9",
                            "error", Map.of("status", 503, "message", "Connection refused")))));
            default -> ErrorBody.send(res, Status.NOT_FOUND_404, "not_found", "No diagnostics named " + name);
        }
    }

    private static Map<String, Object> podObject(String podName, String name) {
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("podName", podName);
        pod.put("podIp", "127.0.0.8");
        pod.put("module", "worker");
        if (name.equals("jvm") || name.equals("all")) {
            var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
            pod.put("jvm", Map.of("memory", Map.of("heap", Map.of("used", heap.getUsed(), "max", heap.getMax())),
                    "uptime", ManagementFactory.getRuntimeMXBean().getUptime()));
        }
        if (name.equals("env") || name.equals("all")) {
            pod.put("env", Map.of("variables", Map.of("PATH", "/usr/bin")));
        }
        return pod;
    }

    private void heapDump(ServerResponse res) {
        res.header(HeaderNames.CONTENT_TYPE, "application/octet-stream");
        res.header(HeaderNames.CONTENT_LENGTH, String.valueOf(HEAP_DUMP_SIZE));
        byte[] chunk = new byte[1024 * 1024];
        byte[] header = "JAVA PROFILE 1.0.2\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        System.arraycopy(header, 0, chunk, 0, header.length);
        try (OutputStream out = res.outputStream()) {
            out.write(chunk);
            out.flush();
            if (!releaseHeapDump.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never asked for the rest of the heap dump");
            }
            java.util.Arrays.fill(chunk, (byte) 7);
            for (int i = 1; i < HEAP_DUMP_SIZE / chunk.length; i++) {
                out.write(chunk);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        pod.stop();
    }
}
