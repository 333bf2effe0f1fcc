package io.pylon.manager.deployments;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import io.pylon.gateway.model.InvalidProxyException;
import io.pylon.gateway.model.ProxyParser;
import io.pylon.gateway.model.RenderedBundle;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.proxies.ProxyDefinitions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes deployments (the next number of an environment, never an old one rewritten), publishes them to the
 * long-polls, and waits for the environment's Worker pods to report them applied. Stateless besides its
 * collaborators; safe for concurrent use (two deploys at once get two numbers).
 */
public final class Deployer {
    /** A pod heard from within this long counts as one of the environment's pods. */
    public static final Duration LIVE = Duration.ofSeconds(90);
    private static final Duration RECHECK = Duration.ofMillis(200);

    /** One proxy of a new snapshot: its name, revision and definition. */
    public record Entry(String name, int revision, JsonNode definition) {
    }

    private final DeploymentStore store;
    private final BundleWatch watch;
    private final ProxyParser parser;
    private final Clock clock;

    public Deployer(DeploymentStore store, BundleWatch watch, ProxyDefinitions definitions, Clock clock) {
        this.store = store;
        this.watch = watch;
        this.parser = definitions.parser();
        this.clock = clock;
    }

    /** The proxies of the environment's latest deployment with the definitions it deployed (empty before the first). */
    public Map<String, Entry> deployed(String environment) {
        return store.latest(environment).map(d -> entries(d)).orElseGet(TreeMap::new);
    }

    /** The proxies of one deployment, from its own bundle: what it deployed, even of a proxy deleted since. */
    public Map<String, Entry> entries(Deployment deployment) {
        byte[] bundle = store.bundle(deployment.environment(), deployment.version()).orElseThrow();
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(bundle);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Entry> entries = new TreeMap<>();
        for (JsonNode proxy : root.path("proxies")) {
            String name = proxy.path("name").asText();
            entries.put(name, new Entry(name, deployment.proxies().getOrDefault(name, 0), proxy));
        }
        return entries;
    }

    /** Writes the snapshot as the environment's next version and wakes its Workers' long-polls. */
    public Deployment write(String environment, Map<String, Entry> snapshot, String kind, @Nullable Long fromVersion,
                            String author, String comment) {
        List<JsonNode> definitions = snapshot.values().stream().map(Entry::definition).toList();
        Map<String, Integer> revisions = new LinkedHashMap<>();
        snapshot.values().forEach(e -> revisions.put(e.name(), e.revision()));
        for (int attempt = 0; attempt < 5; attempt++) {
            long version = store.latest(environment).map(Deployment::version).orElse(0L) + 1;
            RenderedBundle bundle = RenderedBundle.render(version, definitions);
            try {
                parser.parse(bundle.json(), true); // what every Worker will run: refuse here what they would refuse
            } catch (InvalidProxyException e) {
                throw ProxyDefinitions.invalid(e);
            }
            Instant now = clock.instant();
            if (store.insert(environment, bundle, revisions, kind, fromVersion, author, now, comment)) {
                watch.published(environment, bundle);
                return new Deployment(environment, version, bundle.sha256(), kind, fromVersion, author, now, comment,
                        revisions);
            }
        }
        throw new ApiException(io.helidon.http.Status.CONFLICT_409, "conflict",
                "Other deployments of '" + environment + "' kept taking the next number; try again.");
    }

    /**
     * Waits until every live pod of the environment applied {@code deployment} (or refused it), at most {@code wait},
     * and answers the per-pod result.
     */
    public Map<String, Object> awaitPods(Deployment deployment, Duration wait, Instant started)
            throws InterruptedException {
        Instant deadline = started.plus(wait);
        Map<String, Long> firstSeen = new LinkedHashMap<>();
        List<GatewayPod> pods;
        while (true) {
            Instant now = clock.instant();
            pods = livePods(deployment.environment(), now);
            boolean done = !pods.isEmpty();
            for (GatewayPod pod : pods) {
                boolean applied = pod.appliedVersion() != null && pod.appliedVersion() >= deployment.version();
                boolean refused = pod.rejectedVersion() != null && pod.rejectedVersion() == deployment.version();
                if (applied || refused) {
                    firstSeen.putIfAbsent(pod.podName(), Duration.between(started, now).toMillis());
                } else {
                    done = false;
                }
            }
            if (done || !now.isBefore(deadline)) {
                break;
            }
            Duration left = Duration.between(now, deadline);
            watch.awaitReport(deployment.environment(), left.compareTo(RECHECK) < 0 ? left : RECHECK);
        }
        long elapsed = Duration.between(started, clock.instant()).toMillis();
        List<Map<String, Object>> details = new ArrayList<>();
        boolean success = !pods.isEmpty();
        for (GatewayPod pod : pods) {
            boolean applied = pod.appliedVersion() != null && pod.appliedVersion() >= deployment.version();
            boolean refused = pod.rejectedVersion() != null && pod.rejectedVersion() == deployment.version();
            success &= applied;
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("envName", deployment.environment());
            detail.put("podName", pod.podName());
            detail.put("podIp", pod.podIp());
            detail.put("success", applied);
            detail.put("responseTime", firstSeen.getOrDefault(pod.podName(), elapsed));
            detail.put("appliedVersion", pod.appliedVersion());
            detail.put("error", applied ? null : refused ? "Rejected version " + deployment.version() + ": "
                    + pod.lastError() : "Not applied within " + wait.toMillis() + " ms (serves version "
                    + pod.appliedVersion() + ")");
            details.add(detail);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("success", success);
        result.put("responseTime", elapsed);
        result.put("detailList", details);
        if (pods.isEmpty()) {
            result.put("message", "No Worker pod of '" + deployment.environment() + "' polled the Manager in the last "
                    + LIVE.toSeconds() + " s; the deployment is stored and is served to pods when they poll.");
        }
        return result;
    }

    public List<GatewayPod> livePods(String environment, Instant now) {
        Instant since = now.minus(LIVE);
        return store.pods(environment).stream().filter(p -> p.lastContact().isAfter(since)).toList();
    }
}
