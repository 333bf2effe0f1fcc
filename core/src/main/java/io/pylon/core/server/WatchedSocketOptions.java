package io.pylon.core.server;

import io.helidon.common.socket.SocketOptions;

import java.net.Socket;
import java.net.SocketOption;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A listener's socket options that also hand each accepted socket to {@code onAccepted}: Helidon's listener configures
 * every socket it accepts with its connection options, on its accept thread, and offers no other hook at that point.
 *
 * <p>Threading: immutable; {@code onAccepted} runs on the accept thread.
 */
final class WatchedSocketOptions implements SocketOptions {
    private final SocketOptions options;
    private final Consumer<SocketChannel> onAccepted;

    WatchedSocketOptions(SocketOptions options, Consumer<SocketChannel> onAccepted) {
        this.options = options;
        this.onAccepted = onAccepted;
    }

    @Override
    public void configureSocket(SocketChannel socket) {
        options.configureSocket(socket);
        onAccepted.accept(socket);
    }

    @Override
    public void configureSocket(Socket socket) {
        options.configureSocket(socket);
    }

    @Override
    public Map<SocketOption<?>, Object> socketOptions() {
        return options.socketOptions();
    }

    @Override
    public Duration connectTimeout() {
        return options.connectTimeout();
    }

    @Override
    public Duration readTimeout() {
        return options.readTimeout();
    }

    @Override
    public Optional<Integer> socketReceiveBufferSize() {
        return options.socketReceiveBufferSize();
    }

    @Override
    public Optional<Integer> socketSendBufferSize() {
        return options.socketSendBufferSize();
    }

    @Override
    public boolean socketReuseAddress() {
        return options.socketReuseAddress();
    }

    @Override
    public boolean socketKeepAlive() {
        return options.socketKeepAlive();
    }

    @Override
    public boolean tcpNoDelay() {
        return options.tcpNoDelay();
    }
}
