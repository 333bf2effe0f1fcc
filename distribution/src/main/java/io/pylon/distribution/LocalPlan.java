package io.pylon.distribution;

import org.jspecify.annotations.Nullable;

import io.pylon.core.server.PylonModule;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the pods of {@code pylon up} listen: each on its own loopback address (127.0.0.1 and the next ones) with the
 * seed's port, so that the local platform looks like the cluster; where an address cannot be bound (not every system
 * routes all of 127.0.0.0/8) or the port is taken (another platform runs), the pod moves to a free port on the first
 * address instead. A Cache pod's data grid port (5701) falls back the same way, on the host its pod got. The
 * Integration pods share one address, the first on the module's port and the second on the next port, so that the
 * platform holds seven addresses whatever the number of pods.
 */
final class LocalPlan {
    /** Module and replica count, in start order: the Manager first (it hands out the environment). */
    static final List<String[]> LAYOUT = List.of(
            new String[]{"manager", "1"},
            new String[]{"cache", "2"},
            new String[]{"worker", "2"},
            new String[]{"integration", "2"},
            new String[]{"portal", "1"});

    /** Data grid port of a local Cache pod when it is free on the pod's address (pylon.grid.port's default). */
    static final int GRID_PORT = 5701;

    static final String DEFAULT_FIRST_ADDRESS = "127.0.0.1";

    /** Modules whose replicas share one address, on consecutive ports from the module's own. */
    static final java.util.Set<String> ONE_ADDRESS = java.util.Set.of("integration");

    private LocalPlan() {
    }

    static List<LocalPod> create() {
        return create(DEFAULT_FIRST_ADDRESS);
    }

    /** The pods on {@code firstAddress} and the addresses after it (an IPv4 loopback address, checked by {@link #checkFirstAddress}). */
    static List<LocalPod> create(String firstAddress) {
        int[] octets = octets(firstAddress);
        if (octets == null) {
            throw new IllegalArgumentException("not an IPv4 address: " + firstAddress);
        }
        List<LocalPod> pods = new ArrayList<>();
        int next = octets[3];
        for (String[] entry : LAYOUT) {
            PylonModule module = Modules.named(entry[0]);
            int replicas = Integer.parseInt(entry[1]);
            boolean oneAddress = ONE_ADDRESS.contains(module.name());
            for (int i = 0; i < replicas; i++) {
                String name = replicas == 1 ? module.name() : module.name() + "-" + i;
                String host = octets[0] + "." + octets[1] + "." + octets[2] + "." + (oneAddress ? next : next++);
                int port = module.defaultPort() + (oneAddress ? i : 0);
                if (!canBind(host, port)) {
                    host = firstAddress;
                    port = freePort(host);
                }
                int gridPort = 0;
                if (module.name().equals("cache")) {
                    gridPort = canBind(host, GRID_PORT) ? GRID_PORT : freePort(host);
                }
                pods.add(new LocalPod(module.name(), name, host, port, gridPort));
            }
            if (oneAddress) {
                next++;
            }
        }
        return pods;
    }

    /** Why {@code address} cannot be the first of the local pods, or null when it can. */
    static @Nullable String checkFirstAddress(String address) {
        int[] octets = octets(address);
        if (octets == null || octets[0] != 127) {
            return "--first-address must be an IPv4 loopback address such as 127.0.0.1, got '" + address + "'";
        }
        int addresses = addressCount();
        if (octets[3] < 1 || octets[3] + addresses - 1 > 254) {
            return "--first-address leaves no room for " + addresses + " consecutive addresses after it: '" + address + "'";
        }
        return null;
    }

    /** How many consecutive addresses the pods take: one per pod, one per module of {@link #ONE_ADDRESS}. */
    static int addressCount() {
        return LAYOUT.stream().mapToInt(e -> ONE_ADDRESS.contains(e[0]) ? 1 : Integer.parseInt(e[1])).sum();
    }

    private static int @Nullable [] octets(@Nullable String address) {
        if (address == null || !address.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
            return null;
        }
        int[] octets = new int[4];
        String[] parts = address.split("\\.");
        for (int i = 0; i < 4; i++) {
            octets[i] = Integer.parseInt(parts[i]);
            if (octets[i] > 255) {
                return null;
            }
        }
        return octets;
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

    private static int freePort(String host) {
        try (ServerSocket socket = new ServerSocket(0, 1, Inet4Address.getByName(host))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port on " + host, e);
        }
    }
}
