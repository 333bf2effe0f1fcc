package io.pylon.core.broadcast;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.diagnostics.DiagnosticsResponses;
import io.pylon.core.diagnostics.LocalDiagnostics;
import io.pylon.core.discovery.DiscoveredPod;
import io.pylon.core.discovery.DiscoveryException;
import io.pylon.core.discovery.PodDiscovery;
import io.pylon.core.http.PodPaths;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code ?pod=<podName>}: answers the call as that pod would, through this one. From outside a cluster a Service
 * hands a call to any pod; this is how an operator reaches a given one. The other pod's answer (a heap dump too) is
 * streamed through as it comes, status and content headers included, never held whole.
 */
final class PodForwarder {
    private static final System.Logger LOG = System.getLogger(PodForwarder.class.getName());
    /** Response headers passed on from the other pod. */
    private static final List<HeaderName> PASSED_ON = List.of(HeaderNames.CONTENT_TYPE, HeaderNames.CONTENT_DISPOSITION,
            HeaderNames.CACHE_CONTROL, HeaderNames.RETRY_AFTER, HeaderNames.CONTENT_LENGTH);

    /** Answers up to this size (and of known size) are passed on in one piece, larger ones streamed. */
    private static final long SENT_WHOLE = 1024 * 1024;

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

    void answer(String target, String name, ServerRequest req, ServerResponse res, LocalDiagnostics local) throws IOException {
        String selfName = local.identity().podName();
        if (target.equals(selfName)) {
            answerHere(name, req, res, local);
            return;
        }
        List<DiscoveredPod> pods;
        try {
            pods = discovery.pods();
        } catch (DiscoveryException e) {
            GatewayErrors.send(res, 503, "Cannot find pod '" + clip(target) + "': " + discovery.mode().label()
                    + " discovery failed (" + e.getMessage() + ").");
            return;
        }
        Optional<DiscoveredPod> found = pods.stream()
                .filter(p -> p.podName().equals(target) || target.equals(p.podIp()) && !p.podName().equals(selfName))
                .findFirst();
        if (found.isEmpty()) {
            GatewayErrors.send(res, 404, "No pod named '" + clip(target) + "' in this module; pods: ["
                    + pods.stream().map(DiscoveredPod::podName).sorted().collect(Collectors.joining(", ")) + "].");
            return;
        }
        DiscoveredPod pod = found.get();
        if (!pod.isCallable()) {
            GatewayErrors.send(res, 503, "Pod " + pod.podName() + " cannot be called: " + pod.unavailable() + ".");
            return;
        }
        forward(pod, name, req, res);
    }

    private static void answerHere(String name, ServerRequest req, ServerResponse res, LocalDiagnostics local) {
        if (LocalDiagnostics.HEAPDUMP.equals(name)) {
            local.sendHeapDump(req, res);
        } else {
            DiagnosticsResponses.sendLocal(name, req, res, local);
        }
    }

    private void forward(DiscoveredPod pod, String name, ServerRequest req, ServerResponse res) throws IOException {
        boolean heapDump = LocalDiagnostics.HEAPDUMP.equals(name);
        URI uri = PeerUri.of(pod.baseUrl(), paths, name, req.query(), !heapDump);
        Duration timeout = limits.podTimeout(name);
        PeerClient.Response response;
        try {
            response = client.get(uri, req.headers().first(HeaderNames.AUTHORIZATION).orElse(null),
                    req.headers().first(HeaderNames.ACCEPT).orElse(null), timeout);
        } catch (IOException | RuntimeException e) {
            PodFailure failure = PodFailure.of(e, timeout);
            GatewayErrors.send(res, failure.status(), "Pod " + pod.podName() + ": " + failure.message() + ".");
            return;
        }
        try (response) {
            InputStream body = response.body();
            res.status(Status.create(response.status()));
            for (HeaderName header : PASSED_ON) {
                response.header(header.defaultCase()).ifPresent(value -> res.header(header, value));
            }
            long length = response.header(HeaderNames.CONTENT_LENGTH.defaultCase()).map(Long::parseLong).orElse(-1L);
            if (length >= 0 && length <= SENT_WHOLE) {
                // one write: a streamed small answer would wait for the client's delayed ACK (see AggregateOutput)
                res.send(body.readNBytes((int) length));
                return;
            }
            try (OutputStream out = res.outputStream()) {
                body.transferTo(out);
            } catch (IOException | UncheckedIOException e) {
                // the status is sent already: all that is left is to cut the answer short, and say why in the log
                LOG.log(Level.WARNING, "Passing on " + name + " from pod " + pod.podName() + " failed: "
                        + e.getClass().getSimpleName());
                throw e;
            }
        }
    }

    private static String clip(String text) {
        return text.length() > 64 ? text.substring(0, 64) + "..." : text;
    }
}
