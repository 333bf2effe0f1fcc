package io.pylon.distribution;

/**
 * One pod of the local platform: which module, its name and where it listens; a Cache pod also the port of its data
 * grid member on the same host (0 for the other modules).
 */
record LocalPod(String module, String name, String host, int port, int gridPort) {
    LocalPod(String module, String name, String host, int port) {
        this(module, name, host, port, 0);
    }

    String url() {
        return "http://" + host + ":" + port;
    }

    /** {@code host:gridPort}, the data grid member of a Cache pod. */
    String gridAddress() {
        return host + ":" + gridPort;
    }
}
