package io.pylon.distribution;

/** One pod of the local platform: which module, its name and where it listens. */
record LocalPod(String module, String name, String host, int port) {
    String url() {
        return "http://" + host + ":" + port;
    }
}
