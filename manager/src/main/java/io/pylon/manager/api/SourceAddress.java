package io.pylon.manager.api;

import io.helidon.webserver.http.ServerRequest;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** The caller's address for the audit log: the TCP peer (forwarding headers are not trusted by default). */
public final class SourceAddress {
    private SourceAddress() {
    }

    public static String of(ServerRequest req) {
        SocketAddress address = req.remotePeer().address();
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return String.valueOf(address);
    }
}
