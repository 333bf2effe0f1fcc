package io.pylon.worker.testing;

import io.pylon.core.server.Pod;
import io.pylon.worker.WorkerModule;
import io.pylon.core.testing.TestPods;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;

/** A Worker pod started on a routes file the test writes, for gateway tests. */
public final class Gateway implements AutoCloseable {
    public final Pod pod;
    public final WorkerModule module;
    public final Path routesFile;

    private Gateway(Pod pod, WorkerModule module, Path routesFile) {
        this.pod = pod;
        this.module = module;
        this.routesFile = routesFile;
    }

    public static Gateway start(String podName, String routesYaml, Map<String, String> extra) {
        Path file = writeTemp(routesYaml);
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.worker.routes-file", file.toString());
        settings.put("pylon.worker.routes-reload-interval", "100ms");
        settings.put("pylon.worker.upstream.recheck-interval", "200ms");
        settings.putAll(extra);
        WorkerModule module = new WorkerModule();
        return new Gateway(TestPods.start(module, podName, settings), module, file);
    }

    public static Gateway start(String routesYaml) {
        return start("worker-test", routesYaml, Map.of());
    }

    public static Path writeTemp(String content) {
        try {
            Path dir = Files.createTempDirectory("pylon-routes");
            Path file = dir.resolve("routes.yaml");
            Files.writeString(file, content);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Replaces the routes file the way a deployment tool does: write aside, then rename over it. */
    public void rewrite(String content) {
        try {
            Path next = routesFile.resolveSibling("routes.next");
            Files.writeString(next, content);
            Files.move(next, routesFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url(String path) {
        return TestPods.baseUrl(pod) + path;
    }

    @SuppressWarnings("unchecked")
    public Map<String, Object> connections() {
        return module.connections().collect();
    }

    public long leased() {
        return ((Number) connections().get("active")).longValue();
    }

    @Override
    public void close() {
        pod.stop();
        TestPods.deleteTree(routesFile.getParent());
    }

    public static void await(String what, long timeoutMillis, java.util.function.BooleanSupplier condition) {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
