package io.pylon.distribution;

import io.pylon.core.server.PylonModule;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the pods of {@code pylon up} listen: each on its own 127.0.0.x address with the seed's port, so that the
 * local platform looks like the cluster; where an address cannot be bound (not every system routes all of
 * 127.0.0.0/8) or the port is taken, the pod moves to a free port on 127.0.0.1 instead.
 */
final class LocalPlan {
    /** Module and replica count, in start order: the Manager first (it hands out the environment). */
    static final List<String[]> LAYOUT = List.of(
            new String[]{"manager", "1"},
            new String[]{"cache", "2"},
            new String[]{"worker", "2"},
            new String[]{"integration", "1"},
            new String[]{"portal", "1"});

    private LocalPlan() {
    }

    static List<LocalPod> create() {
        List<LocalPod> pods = new ArrayList<>();
        int nextAddress = 1;
        for (String[] entry : LAYOUT) {
            PylonModule module = Modules.named(entry[0]);
            int replicas = Integer.parseInt(entry[1]);
            for (int i = 0; i < replicas; i++) {
                String name = replicas == 1 ? module.name() : module.name() + "-" + i;
                String host = "127.0.0." + nextAddress++;
                int port = module.defaultPort();
                if (!canBind(host, port)) {
                    host = "127.0.0.1";
                    port = freePort();
                }
                pods.add(new LocalPod(module.name(), name, host, port));
            }
        }
        return pods;
    }

    private static boolean canBind(String host, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port on 127.0.0.1", e);
        }
    }
}
