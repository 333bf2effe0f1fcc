package io.pylon.core.broadcast;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Header;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.diagnostics.DiagnosticsBusyException;
import io.pylon.core.diagnostics.LocalDiagnostics;
import io.pylon.core.diagnostics.PodFanOut;
import io.pylon.core.diagnostics.SectionFailedException;
import io.pylon.core.discovery.Discoveries;
import io.pylon.core.discovery.DiscoveredPod;
import io.pylon.core.discovery.DiscoveryException;
import io.pylon.core.discovery.PodDiscovery;
import io.pylon.core.http.Json;
import io.pylon.core.http.PodPaths;
import io.pylon.core.server.ModuleContext;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Broadcast diagnostics: a call without {@code internal=true} asks every pod that discovery finds (this one
 * in-process, the others over HTTP with {@code internal=true} and the caller's Authorization, so a peer never
 * broadcasts again) and answers {@code {"pods":[...],"summary":{...},"responseTime":..,"discovery":{...}}}.
 * {@code pod=<name>} routes the call to one pod instead. Heap dumps never broadcast.
 */
public final class BroadcastFanOut implements PodFanOut, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(BroadcastFanOut.class.getName());
    private static final Header NO_STORE = HeaderValues.createCached(HeaderNames.CACHE_CONTROL, "no-store");
    /** Aggregates up to this size leave in one write; larger ones stream in pieces of about this size. */
    private static final int OUTPUT_BUFFER = 1024 * 1024;

    private final PodDiscovery discovery;
    private final PeerClient client;
    private final PodPaths paths;
    private final Broadcast broadcast;
    private final PodForwarder forwarder;

    public BroadcastFanOut(PodDiscovery discovery, BroadcastLimits limits, String segment) {
        this.discovery = discovery;
        this.client = new PeerClient(limits.connectTimeout());
        this.paths = PodPaths.of(segment);
        this.broadcast = new Broadcast(client, limits);
        this.forwarder = new PodForwarder(discovery, client, limits, paths);
    }

    /** The fan-out of a pod, with the discovery its settings choose. */
    public static BroadcastFanOut create(ModuleContext context) {
        PodDiscovery discovery = Discoveries.create(context.settings(), context.identity(), context.port());
        return new BroadcastFanOut(discovery, BroadcastLimits.from(context.settings()), context.segment());
    }

    @Override
    public void answer(String name, ServerRequest req, ServerResponse res, LocalDiagnostics local) throws Exception {
        Optional<String> target = req.query().first("pod").asOptional();
        if (target.isPresent()) {
            forwarder.answer(target.get(), name, req, res, local);
            return;
        }
        if (LocalDiagnostics.HEAPDUMP.equals(name)) {
            local.sendHeapDump(req, res);
            return;
        }
        long t0 = System.nanoTime();
        String selfName = local.identity().podName();
        List<DiscoveredPod> pods;
        String discoveryError = null;
        try {
            pods = discovery.pods();
        } catch (DiscoveryException e) {
            discoveryError = e.getMessage();
            LOG.log(Level.WARNING, discovery.mode().label() + " discovery failed, answering for this pod alone: " + discoveryError);
            pods = List.of(DiscoveredPod.callable(selfName, local.identity().podIp(), null));
        }
        String authorization = req.headers().first(HeaderNames.AUTHORIZATION).orElse(null);
        Broadcast.Call call = new Broadcast.Call(name, authorization, pod -> PeerUri.of(pod.baseUrl(), paths, name, req.query(), true));
        res.status(Status.OK_200);
        res.header(Json.CONTENT_TYPE_JSON);
        res.header(NO_STORE);
        AggregateOutput out = new AggregateOutput(res::outputStream, res::send, OUTPUT_BUFFER);
        try {
            AggregateWriter writer = new AggregateWriter(out, local.aggregations(name));
            writer.start();
            broadcast.run(pods, selfName, () -> answerSelf(name, local), call, writer);
            writer.finish(Math.round((System.nanoTime() - t0) / 1_000.0) / 1_000.0, discovery.mode().label(), discoveryError);
            out.close();
        } catch (IOException | RuntimeException e) {
            out.abort();
            throw e;
        }
    }

    private static byte[] answerSelf(String name, LocalDiagnostics local) throws PodFailedException {
        try {
            return Json.bytes(local.answer(name));
        } catch (DiagnosticsBusyException e) {
            throw new PodFailedException(new PodFailure(429, e.getMessage()));
        } catch (SectionFailedException e) {
            throw new PodFailedException(new PodFailure(500, e.getMessage()));
        } catch (NoSuchElementException e) {
            throw new PodFailedException(new PodFailure(404, e.getMessage()));
        }
    }

    @Override
    public void close() {
        client.close();
        discovery.close();
    }
}
