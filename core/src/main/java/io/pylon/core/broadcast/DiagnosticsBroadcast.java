package io.pylon.core.broadcast;

import org.jspecify.annotations.Nullable;

import io.pylon.core.diagnostics.DiagnosticsQuery;
import io.pylon.core.diagnostics.LocalDiagnostics;
import io.pylon.core.diagnostics.compare.CompareOptions;
import io.pylon.core.discovery.DiscoveredPod;
import io.pylon.core.discovery.DiscoveryException;
import io.pylon.core.discovery.PodDiscovery;
import io.pylon.core.http.PodPaths;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Diagnostics across the pods of a module, free of HTTP: a broadcast asks every pod that discovery finds (this one
 * in-process through its {@link LocalPod}, the others over HTTP with {@code internal=true} and the caller's
 * Authorization, so a peer never broadcasts again) and writes {@code {"pods":[...],"summary":{...},"responseTime":..,"discovery":{...}}} to an
 * output; a forward opens one named pod's answer for the caller to pass on.
 *
 * <p>Threading: one instance per pod, called concurrently by request threads; it holds no per-call state (each
 * {@link Broadcast} run has its own threads), and the peer client and discovery it owns are thread-safe.
 */
public final class DiagnosticsBroadcast implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DiagnosticsBroadcast.class.getName());
    /** What {@code compare} reads of each pod, where the pod's module has it (connections: Worker, datagrid: Cache). */
    private static final List<String> COMPARED_SECTIONS = List.of("jvm", "threads", "health", "env", "connections", "datagrid");
    private static final SecureRandom NONCES = new SecureRandom();

    private final PodDiscovery discovery;
    private final PeerClient client;
    private final PodPaths paths;
    private final Broadcast broadcast;
    private final PodForwarder forwarder;
    private final BroadcastMeters meters;
    private final CompareOptions compareOptions;

    public DiagnosticsBroadcast(PodDiscovery discovery, BroadcastLimits limits, String segment) {
        this(discovery, limits, segment, BroadcastMeters.disabled());
    }

    public DiagnosticsBroadcast(PodDiscovery discovery, BroadcastLimits limits, String segment, BroadcastMeters meters) {
        this(discovery, limits, segment, meters, CompareOptions.defaults());
    }

    public DiagnosticsBroadcast(PodDiscovery discovery, BroadcastLimits limits, String segment, BroadcastMeters meters,
                                CompareOptions compareOptions) {
        this(discovery, limits, segment, meters, compareOptions, () -> null);
    }

    /** @param peerTls how {@code https} peers are trusted; null: the JDK's trust store (see {@link PeerClient}) */
    public DiagnosticsBroadcast(PodDiscovery discovery, BroadcastLimits limits, String segment, BroadcastMeters meters,
                                CompareOptions compareOptions, java.util.function.Supplier<io.helidon.common.tls.@Nullable Tls> peerTls) {
        this.compareOptions = compareOptions;
        this.discovery = discovery;
        this.client = new PeerClient(limits.connectTimeout(), peerTls);
        this.paths = PodPaths.of(segment);
        this.meters = meters;
        this.broadcast = new Broadcast(client, limits, meters);
        this.forwarder = new PodForwarder(discovery, client, limits, paths);
    }

    /**
     * Asks every pod for {@code name} (a read, or with another method a change such as a log level set on every pod)
     * and writes the aggregate, sorted by podName, to {@code out}, which it closes. When discovery fails the pod
     * answers for itself alone and says why under {@code discovery.error}.
     *
     * @param query the caller's query parameters, passed on to every peer ({@code pod} and {@code internal} are not)
     * @param self  this pod's part, read by the caller from its diagnostics for this name
     */
    public void run(String method, String name, @Nullable String authorization, Map<String, List<String>> query, LocalPod self,
                    AggregateOutput out) throws IOException {
        long t0 = System.nanoTime();
        Discovered found = discover(self);
        Broadcast.Call call = new Broadcast.Call(method, name, authorization,
                pod -> PeerUri.of(pod.callableBaseUrl(), paths, name, query, true));
        try {
            AggregateWriter writer = new AggregateWriter(out, self.aggregations());
            writer.start();
            DiagnosticsQuery parameters = DiagnosticsQuery.of(query);
            broadcast.run(found.pods(), self.podName(), () -> self.answer().answer(method, name, parameters), call, writer);
            writer.finish(millisSince(t0), discovery.mode().label(), found.error());
            meters.finished(System.nanoTime() - t0);
            out.close();
        } catch (IOException | RuntimeException e) {
            out.abort();
            throw e;
        }
    }

    /**
     * The sections a {@code compare} can hand back per pod besides the comparison ({@code compare?sections=jvm,threads}):
     * those it asks every pod for anyway, but {@code env}, whose values a comparison never shows.
     */
    public static List<String> returnableSections(LocalPod self) {
        return COMPARED_SECTIONS.stream().filter(s -> !s.equals("env") && self.sectionsInAll().contains(s)).toList();
    }

    /**
     * {@code compare}: asks every pod for {@code all} limited to the sections compared (all light, so no pod's
     * heavy-call limit is touched) with a fresh digest nonce for the environment's keyed hashes, keeps each pod's
     * facts as its answer arrives, and writes the outliers, the drift and the pods to {@code out}, which it closes.
     * Each pod's element also carries its {@code podSections} (of {@link #returnableSections}), so that one call
     * gives a fleet's table and its comparison ({@code pylon pods}).
     */
    public void compare(@Nullable String authorization, LocalPod self, List<String> podSections, AggregateOutput out)
            throws IOException {
        long t0 = System.nanoTime();
        Discovered found = discover(self);
        byte[] nonce = new byte[16];
        NONCES.nextBytes(nonce);
        Map<String, List<String>> query = Map.of(LocalDiagnostics.SECTIONS,
                List.of(String.join(",", COMPARED_SECTIONS.stream().filter(self.sectionsInAll()::contains).toList())),
                "digest", List.of(HexFormat.of().formatHex(nonce)));
        Broadcast.Call call = new Broadcast.Call(LocalDiagnostics.GET, LocalDiagnostics.COMPARE, authorization,
                pod -> PeerUri.of(pod.callableBaseUrl(), paths, LocalDiagnostics.ALL, query, true));
        try {
            FleetComparison comparison = new FleetComparison(compareOptions, podSections);
            DiagnosticsQuery parameters = DiagnosticsQuery.of(query);
            broadcast.run(found.pods(), self.podName(),
                    () -> self.answer().answer(LocalDiagnostics.GET, LocalDiagnostics.ALL, parameters), call, comparison);
            comparison.finish(out, millisSince(t0), discovery.mode().label(), found.error());
            meters.finished(System.nanoTime() - t0);
            out.close();
        } catch (IOException | RuntimeException e) {
            out.abort();
            throw e;
        }
    }

    private record Discovered(List<DiscoveredPod> pods, @Nullable String error) {
    }

    // When discovery fails the pod answers for itself alone and says why.
    private Discovered discover(LocalPod self) {
        try {
            return new Discovered(discovery.pods(), null);
        } catch (DiscoveryException e) {
            LOG.log(Level.WARNING, discovery.mode().label() + " discovery failed, answering for this pod alone: " + e.getMessage());
            return new Discovered(List.of(DiscoveredPod.callable(self.podName(), self.podIp(), null)), e.getMessage());
        }
    }

    private static double millisSince(long t0) {
        return Math.round((System.nanoTime() - t0) / 1_000.0) / 1_000.0;
    }

    /**
     * Opens another pod's answer to {@code name} (a read or a change; a heap dump too) as it would answer the caller,
     * to be passed on.
     *
     * @throws PodFailedException with 404 for a pod discovery does not know, 503 for one that cannot be called or
     *                            when discovery fails, 502/504 when the pod cannot be reached in time
     */
    public PeerClient.Response forward(String method, String target, String name, @Nullable String authorization, @Nullable String accept,
                                       Map<String, List<String>> query, String selfName) throws PodFailedException {
        return forwarder.open(method, target, name, authorization, accept, query, selfName);
    }

    @Override
    public void close() {
        client.close();
        discovery.close();
    }
}
