package io.pylon.core.http;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;

import java.util.Optional;
import java.util.concurrent.ExecutorService;

/** A connection's context with another reader of its bytes; everything else is the connection's own. */
final class ReaderReplacingContext implements ConnectionContext {
    private final ConnectionContext delegate;
    private final DataReader reader;

    ReaderReplacingContext(ConnectionContext delegate, DataReader reader) {
        this.delegate = delegate;
        this.reader = reader;
    }

    @Override
    public DataReader dataReader() {
        return reader;
    }

    @Override
    public ListenerContext listenerContext() {
        return delegate.listenerContext();
    }

    @Override
    public ExecutorService executor() {
        return delegate.executor();
    }

    @Override
    public DataWriter dataWriter() {
        return delegate.dataWriter();
    }

    @Override
    public Router router() {
        return delegate.router();
    }

    @Override
    public Optional<ProxyProtocolData> proxyProtocolData() {
        return delegate.proxyProtocolData();
    }

    @Override
    public HelidonSocket serverSocket() {
        return delegate.serverSocket();
    }

    @Override
    public PeerInfo remotePeer() {
        return delegate.remotePeer();
    }

    @Override
    public PeerInfo localPeer() {
        return delegate.localPeer();
    }

    @Override
    public boolean isSecure() {
        return delegate.isSecure();
    }

    @Override
    public String socketId() {
        return delegate.socketId();
    }

    @Override
    public String childSocketId() {
        return delegate.childSocketId();
    }
}
