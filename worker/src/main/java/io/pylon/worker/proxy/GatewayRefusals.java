package io.pylon.worker.proxy;

import io.pylon.core.http.RefusalObserver;
import io.pylon.core.http.RefusedRequest;
import org.jspecify.annotations.Nullable;

/**
 * What the gateway makes of a request its pod refused before routing: the answer carries a new {@link RequestId}
 * (with request IDs on; never a client's own, since nothing of the request may have been read, and a trusted proxy
 * cannot be told from its client before that) and the access log, when on, a line for it.
 *
 * <p>Threading: stateless but for the access log, which takes lines from any thread.
 */
public final class GatewayRefusals implements RefusalObserver {
    private final boolean requestIds;
    private final @Nullable AccessLog accessLog;

    /**
     * @param requestIds whether answers carry a request ID ({@code pylon.worker.request-id})
     * @param accessLog  the access log; null when it is off
     */
    public GatewayRefusals(boolean requestIds, @Nullable AccessLog accessLog) {
        this.requestIds = requestIds;
        this.accessLog = accessLog;
    }

    @Override
    public @Nullable String requestId() {
        return requestIds ? RequestId.generate() : null;
    }

    @Override
    public void refused(RefusedRequest request) {
        if (accessLog != null) {
            accessLog.offer(AccessLog.line(request));
        }
    }
}
