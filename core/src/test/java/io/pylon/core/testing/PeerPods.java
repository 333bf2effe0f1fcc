package io.pylon.core.testing;

import io.pylon.core.server.Pod;
import io.pylon.core.server.PylonModule;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Two real pods of one module, {@code <module>-0} and {@code <module>-1}, that list each other and a third pod,
 * {@code <module>-gone}, that never started, in {@code pylon.discovery.static}: what a broadcast test needs. The ports
 * are chosen before the pods start, since each must know the others' URLs.
 */
public final class PeerPods implements AutoCloseable {
    private final int gonePort;
    private Pod first;
    private Pod second;

    /** The settings of one pod, given the gone peer's port (the pod's port and discovery are added); called per pod. */
    @FunctionalInterface
    public interface PodSettings {
        Map<String, String> of(int gonePort) throws Exception;
    }

    private PeerPods(int gonePort) {
        this.gonePort = gonePort;
    }

    public static PeerPods start(String module, Supplier<PylonModule> factory, PodSettings podSettings) throws Exception {
        int port0 = TestPods.freePort();
        int port1 = TestPods.freePort();
        PeerPods pods = new PeerPods(TestPods.freePort());
        String peers = module + "-0=http://127.0.0.1:" + port0 + "," + module + "-1=http://127.0.0.1:" + port1
                + "," + module + "-gone=http://127.0.0.1:" + pods.gonePort;
        try {
            pods.first = TestPods.start(factory.get(), module + "-0", settings(podSettings, port0, pods.gonePort, peers));
            pods.second = TestPods.start(factory.get(), module + "-1", settings(podSettings, port1, pods.gonePort, peers));
        } catch (Exception | Error e) {
            pods.close();
            throw e;
        }
        return pods;
    }

    private static Map<String, String> settings(PodSettings podSettings, int port, int gonePort, String peers) throws Exception {
        Map<String, String> settings = new HashMap<>(podSettings.of(gonePort));
        settings.put("pylon.server.port", String.valueOf(port));
        settings.put("pylon.discovery.static", peers);
        return settings;
    }

    public Pod first() {
        return first;
    }

    public Pod second() {
        return second;
    }

    @Override
    public void close() {
        for (Pod pod : new Pod[] {first, second}) {
            if (pod != null) {
                pod.stop();
            }
        }
    }
}
