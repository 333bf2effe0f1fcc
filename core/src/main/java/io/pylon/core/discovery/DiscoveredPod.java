package io.pylon.core.discovery;

import org.jspecify.annotations.Nullable;

import java.net.URI;

/**
 * One pod of this module as discovery sees it.
 *
 * @param podName     the pod's name (with DNS discovery, where names are unknown before asking, its address)
 * @param podIp       its address, or null when it has none yet (a Pending pod)
 * @param baseUrl     where its HTTP server answers ({@code http://10.1.2.3:8091}), or null when it cannot be called
 * @param unavailable why it is not called (a pod that exists but is not running), or null when it can be called
 */
public record DiscoveredPod(String podName, @Nullable String podIp, @Nullable URI baseUrl, @Nullable String unavailable) {

    /** The base URL of a pod that {@link #isCallable() can be called}; throws for one that cannot. */
    public URI callableBaseUrl() {
        if (baseUrl == null) {
            throw new IllegalStateException("pod " + podName + " cannot be called: " + unavailable);
        }
        return baseUrl;
    }

    public static DiscoveredPod callable(String podName, String podIp, @Nullable URI baseUrl) {
        return new DiscoveredPod(podName, podIp, baseUrl, null);
    }

    public static DiscoveredPod unavailable(String podName, @Nullable String podIp, String reason) {
        return new DiscoveredPod(podName, podIp, null, reason);
    }

    public boolean isCallable() {
        return unavailable == null;
    }
}
