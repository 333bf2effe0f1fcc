package io.pylon.worker.proxy;

import io.helidon.common.socket.PeerInfo;
import org.jspecify.annotations.Nullable;

import java.net.InetSocketAddress;

/** What the gateway knows of where a request came from: the client's address and the host it asked for. */
final class ClientAddress {
    private ClientAddress() {
    }

    /** The address of the client's connection, without port (what X-Forwarded-For and rate limits use). */
    static String ip(PeerInfo remotePeer) {
        return io.pylon.core.http.Refusals.ip(remotePeer);
    }

    /** The address of the client's connection, null when it is not an IP socket. */
    static java.net.@Nullable InetAddress inet(PeerInfo remotePeer) {
        return remotePeer.address() instanceof InetSocketAddress inet ? inet.getAddress() : null;
    }

    /**
     * The host routes match, from a Host header: without its port ({@code [::1]:80} gives {@code ::1}) and without
     * the dot that ends a fully qualified name ({@code api.example.com.} is {@code api.example.com}, as nginx takes
     * it; else such a name would pass by the routes bound to its host); null stays null.
     */
    static @Nullable String hostToMatch(@Nullable String host) {
        if (host == null) {
            return null;
        }
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end > 0 ? host.substring(1, end) : host;
        }
        int colon = host.indexOf(':');
        String name = colon >= 0 ? host.substring(0, colon) : host;
        return name.length() > 1 && name.charAt(name.length() - 1) == '.' ? name.substring(0, name.length() - 1) : name;
    }
}
