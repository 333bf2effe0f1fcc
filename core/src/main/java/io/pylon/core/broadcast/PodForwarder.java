package io.pylon.core.broadcast;

import io.pylon.core.diagnostics.LocalDiagnostics;
import io.pylon.core.discovery.DiscoveredPod;
import io.pylon.core.discovery.DiscoveryException;
import io.pylon.core.discovery.PodDiscovery;
import io.pylon.core.http.PodPaths;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code ?pod=<podName>}: opens that pod's answer to the call, for this one to pass on. From outside a cluster a
 * Service hands a call to any pod; this is how an operator reaches a given one. A pod is found by its name, or by its
 * address when that is not this pod's own.
 */
final class PodForwarder {
    private final PodDiscovery discovery;
    private final PeerClient client;
    private final BroadcastLimits limits;
    private final PodPaths paths;

    PodForwarder(PodDiscovery discovery, PeerClient client, BroadcastLimits limits, PodPaths paths) {
        this.discovery = discovery;
        this.client = client;
        this.limits = limits;
        this.paths = paths;
    }

    PeerClient.Response open(String method, String target, String name, @Nullable String authorization, @Nullable String accept,
                             Map<String, List<String>> query, String selfName) throws PodFailedException {
        List<DiscoveredPod> pods;
        try {
            pods = discovery.pods();
        } catch (DiscoveryException e) {
            throw failed(503, "Cannot find pod '" + clip(target) + "': " + discovery.mode().label()
                    + " discovery failed (" + e.getMessage() + ").");
        }
        Optional<DiscoveredPod> found = pods.stream()
                .filter(p -> p.podName().equals(target) || target.equals(p.podIp()) && !p.podName().equals(selfName))
                .findFirst();
        if (found.isEmpty()) {
            throw failed(404, "No pod named '" + clip(target) + "' in this module; pods: ["
                    + pods.stream().map(DiscoveredPod::podName).sorted().collect(Collectors.joining(", ")) + "].");
        }
        DiscoveredPod pod = found.get();
        if (!pod.isCallable()) {
            throw failed(503, "Pod " + pod.podName() + " cannot be called: " + pod.unavailable() + ".");
        }
        boolean heapDump = LocalDiagnostics.HEAPDUMP.equals(name);
        URI uri = PeerUri.of(pod.callableBaseUrl(), paths, name, query, !heapDump);
        Duration timeout = limits.podTimeout(name);
        try {
            return client.request(method, uri, authorization, accept, timeout);
        } catch (IOException | RuntimeException e) {
            PodFailure failure = PodFailure.of(e, timeout);
            throw failed(failure.status(), "Pod " + pod.podName() + ": " + failure.message() + ".");
        }
    }

    private static PodFailedException failed(int status, String message) {
        return new PodFailedException(new PodFailure(status, message));
    }

    private static String clip(String text) {
        return text.length() > 64 ? text.substring(0, 64) + "..." : text;
    }
}
