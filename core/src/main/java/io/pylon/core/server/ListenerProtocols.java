package io.pylon.core.server;

import io.helidon.common.tls.Tls;
import io.helidon.webserver.http1.spi.Http1Upgrader;
import io.helidon.webserver.spi.ServerConnectionSelector;

import org.jspecify.annotations.Nullable;

import javax.net.SocketFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a module adds to its pod's listener beyond plain HTTP/1.1: protocol upgrades of HTTP/1.1 connections
 * ({@code websocket}, {@code h2c}), other protocols recognised on a new connection (HTTP/2 with prior knowledge,
 * or chosen by ALPN under TLS), and TLS itself. Nothing is added by default, so the pod speaks only HTTP/1.x.
 *
 * <p>Threading: filled by the module on the start-up thread while it starts, read once when the server is built.
 */
public final class ListenerProtocols {
    private final Map<String, Http1Upgrader> upgraders = new LinkedHashMap<>();
    private final List<ServerConnectionSelector> selectors = new ArrayList<>();
    private @Nullable Tls tls;
    private @Nullable Tls peerTls;
    private SocketFactory probeSockets = SocketFactory.getDefault();
    private boolean blockingSockets;
    private boolean relayedCodings;
    private boolean relayedTargets;

    /** An HTTP/1.1 {@code Upgrade} the listener takes, keyed by its protocol token; the first one for a token wins. */
    public ListenerProtocols addUpgrader(Http1Upgrader upgrader) {
        upgraders.putIfAbsent(upgrader.supportedProtocol(), upgrader);
        return this;
    }

    /** A protocol beside HTTP/1.1, tried after it on the first bytes of a connection (and offered in ALPN). */
    public ListenerProtocols addSelector(ServerConnectionSelector selector) {
        selectors.add(selector);
        return this;
    }

    /**
     * Makes the listener TLS only. {@code probeSockets} opens the connections of the pod's own listener watch (it
     * checks liveness, not identity, so it need not verify the certificate).
     */
    public ListenerProtocols tls(Tls tls, SocketFactory probeSockets) {
        this.tls = tls;
        this.probeSockets = probeSockets;
        return this;
    }

    /**
     * Makes the listener TLS only, as {@link #tls(Tls, SocketFactory)}; {@code peerTls} is how this pod calls the
     * module's other pods (a broadcast's peers, over {@code https}), trusting what they serve.
     */
    public ListenerProtocols tls(Tls tls, SocketFactory probeSockets, Tls peerTls) {
        this.peerTls = peerTls;
        return tls(tls, probeSockets);
    }

    /** How the module's other pods are called over TLS; null: the JDK's trust store (or a plain listener). */
    @Nullable Tls peerTls() {
        return peerTls;
    }

    /**
     * Accepted connections as blocking sockets (Helidon's {@code PlainSocket}: one 8 KiB read buffer per connection)
     * instead of socket channels ({@code NioSocket}: an 8 KiB read and an 8 KiB write buffer, allocated at accept
     * and held for the connection's life). For a pod that holds many long-lived connections, such as tunnels.
     */
    public ListenerProtocols blockingSockets() {
        this.blockingSockets = true;
        return this;
    }

    /**
     * Request bodies keep their {@code Content-Encoding}, neither decoded nor refused, and answers are not compressed:
     * for a pod that passes bodies on as they came, such as a gateway. Without it a body with a content coding is
     * refused with 415, as the pod reads no coded body.
     */
    public ListenerProtocols relayContentCodings() {
        this.relayedCodings = true;
        return this;
    }

    /**
     * Request targets are taken as a reverse proxy such as nginx takes them: Helidon's RFC 3986 checks of the path and
     * query are off, so a query passes as it came ({@code ?filter[status]=a}, {@code ?fields=a|b}, a stray {@code %})
     * and the module checks the path itself. HTTP/2 connections the module adds must say the same in their own
     * configuration. Without it a request line Helidon finds invalid is refused with 400 naming the part.
     */
    public ListenerProtocols relayRequestTargets() {
        this.relayedTargets = true;
        return this;
    }

    boolean relaysRequestTargets() {
        return relayedTargets;
    }

    boolean relaysContentCodings() {
        return relayedCodings;
    }

    boolean usesBlockingSockets() {
        return blockingSockets;
    }

    Map<String, Http1Upgrader> upgraders() {
        return Map.copyOf(upgraders);
    }

    List<ServerConnectionSelector> selectors() {
        return List.copyOf(selectors);
    }

    /** The listener's TLS, or null for plain TCP. */
    @Nullable Tls tls() {
        return tls;
    }

    SocketFactory probeSockets() {
        return probeSockets;
    }

    boolean secure() {
        return tls != null;
    }
}
