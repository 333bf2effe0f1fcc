package io.pylon.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pylon.cache.client.GridClient;
import io.pylon.cache.grid.DatagridSection;
import io.pylon.core.config.Settings;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** Real Cache pods for tests: each on its own loopback address (127.6.x.y) with a free data grid port. */
final class GridTestPods {
    private GridTestPods() {
    }

    /** Where one test Cache pod's member listens. */
    record Slot(String address, int gridPort) {
        String member() {
            return address + ":" + gridPort;
        }
    }

    static Slot slot(String address) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
            return new Slot(address, socket.getLocalPort());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String members(List<Slot> slots) {
        return String.join(",", slots.stream().map(Slot::member).toList());
    }

    /** A started pod and its module (whose member and section the test reads). */
    record CachePod(Pod pod, CacheModule module) {
        DatagridSection datagrid() {
            return module.datagrid();
        }

        /** The pod's broadcast element as the diagnostics endpoint builds it: envelope plus {@code datagrid}. */
        JsonNode asBroadcastElement() throws Exception {
            ObjectNode element = Json.MAPPER.createObjectNode();
            element.put("podName", pod.identity().podName());
            element.set("datagrid", Json.MAPPER.valueToTree(datagrid().collect()));
            return element;
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> section() throws Exception {
            return (Map<String, Object>) datagrid().collect();
        }
    }

    static CachePod start(String podName, Slot slot, String members, Map<String, String> extra) {
        CacheModule module = new CacheModule();
        Map<String, String> settings = new HashMap<>();
        settings.put("pylon.server.bind", slot.address());
        settings.put("pylon.grid.port", String.valueOf(slot.gridPort()));
        settings.put("pylon.grid.members", members);
        settings.putAll(extra);
        return new CachePod(TestPods.start(module, podName, settings), module);
    }

    static GridClient client(String addresses) {
        return GridClient.start(Settings.of(Map.of(
                "pylon.environment.name", "test",
                "pylon.environment.id", TestPods.ENVIRONMENT_ID,
                "pylon.cache.addresses", addresses,
                "pylon.cache.operation-timeout", "2s",
                "pylon.cache.reconnect.initial-backoff", "100ms",
                "pylon.cache.reconnect.max-backoff", "500ms")));
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
