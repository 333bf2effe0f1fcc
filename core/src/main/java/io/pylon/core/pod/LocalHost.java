package io.pylon.core.pod;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** This machine's name and address as a pod reports them (in Kubernetes, HOSTNAME is the pod's name). */
public final class LocalHost {
    private LocalHost() {
    }

    /** HOSTNAME when set, else what the resolver says, else "localhost". Can be slow: resolve once and keep it. */
    public static String name() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /** The address the resolver gives this host's name, else 127.0.0.1. */
    public static String address() {
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (UnknownHostException e) {
            return "127.0.0.1";
        }
    }
}
