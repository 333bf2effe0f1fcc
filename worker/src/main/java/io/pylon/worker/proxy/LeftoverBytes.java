package io.pylon.worker.proxy;

import org.apache.hc.core5.http.impl.io.SessionInputBufferImpl;
import org.jspecify.annotations.Nullable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Whether an upstream connection holds bytes read past the response just finished: an upstream that wrote more than
 * its response (a second, unasked answer, or a body longer than its framing) would have them taken for the answer to
 * the next request sent on it, another client's. HttpCore 5 keeps such bytes in the connection's input buffer and
 * pools the connection anyway; its buffer is read here through a private lookup (HttpCore offers no accessor), and
 * a connection holding bytes is not pooled again. Stateless; the lookup is made once.
 */
final class LeftoverBytes {
    private static final System.Logger LOG = System.getLogger(LeftoverBytes.class.getName());
    // the class holding the buffer is package-private: found by name
    private static final Class<?> BASE = base();
    private static final @Nullable VarHandle IN_BUFFER = inBuffer();

    private LeftoverBytes() {
    }

    private static Class<?> base() {
        try {
            return Class.forName("org.apache.hc.core5.http.impl.io.BHttpConnectionBase");
        } catch (ClassNotFoundException e) {
            return Void.class; // no connection is one: nothing is known of their buffers
        }
    }

    private static @Nullable VarHandle inBuffer() {
        try {
            return MethodHandles.privateLookupIn(BASE, MethodHandles.lookup())
                    .findVarHandle(BASE, "inBuffer", SessionInputBufferImpl.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Cannot see HttpCore's connection buffer (" + e
                    + "): bytes an upstream sends past its response are noticed only at the next request");
            return null;
        }
    }

    /** Whether {@code connection} has read bytes nobody has consumed yet; false when that cannot be known. */
    static boolean buffered(Object connection) {
        VarHandle inBuffer = IN_BUFFER;
        if (inBuffer == null || !BASE.isInstance(connection)) {
            return false;
        }
        SessionInputBufferImpl buffer = (SessionInputBufferImpl) inBuffer.get(connection);
        return buffer != null && buffer.hasBufferedData();
    }
}
