package io.pylon.manager.deployments;

import org.jspecify.annotations.Nullable;

import io.pylon.gateway.model.RenderedBundle;

import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Each environment's current bundle as this Manager replica serves it, and the wake-ups of the requests waiting for
 * a change: Workers' long-polls (a new version) and deploy calls (a pod's report). A deploy on this replica publishes
 * at once; {@link #refresh()}, run every few hundred milliseconds, picks up versions another replica wrote (one
 * grouped query). Thread-safe: concurrent maps of immutable values; a waiter takes the environment's current future
 * and a change completes it and puts a fresh one in its place. Change listeners sit in a copy-on-write list and are
 * called on the thread that installed the version (they must return quickly).
 */
public final class BundleWatch {
    private static final System.Logger LOG = System.getLogger(BundleWatch.class.getName());

    /** A bundle and the bytes a Worker receives. */
    public record Current(long version, String sha256, byte[] json) {
    }

    private final DeploymentStore store;
    private final Map<String, Current> current = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Void>> versionChanged = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Void>> podReported = new ConcurrentHashMap<>();
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

    public BundleWatch(DeploymentStore store) {
        this.store = store;
    }

    /** The environment's bundle: its latest deployment, or version 0 (no proxies) before the first one. */
    public Current current(String environment) {
        Current known = current.get(environment);
        if (known != null) {
            return known;
        }
        Current loaded = store.latest(environment)
                .map(d -> new Current(d.version(), d.sha256(), store.bundle(environment, d.version()).orElseThrow()))
                .orElseGet(() -> {
                    RenderedBundle empty = RenderedBundle.render(0, List.of());
                    return new Current(0, empty.sha256(), empty.json());
                });
        Current raced = current.merge(environment, loaded, (a, b) -> a.version() >= b.version() ? a : b);
        return raced;
    }

    /** Called with the environment's name each time this replica installs a newer version of it. */
    public void onChange(Consumer<String> listener) {
        listeners.add(listener);
    }

    /** A deployment this replica just wrote: served at once, long-polls woken. */
    public void published(String environment, RenderedBundle bundle) {
        install(environment, new Current(bundle.version(), bundle.sha256(), bundle.json()));
    }

    private void install(String environment, Current next) {
        Current installed = current.merge(environment, next, (a, b) -> a.version() >= b.version() ? a : b);
        if (installed == next) {
            fire(versionChanged, environment);
            listeners.forEach(l -> l.accept(environment));
        }
    }

    /** Picks up versions written by other replicas. */
    public void refresh() {
        try {
            for (Map.Entry<String, Long> latest : store.latestVersions().entrySet()) {
                Current known = current.get(latest.getKey());
                if (known == null || known.version() < latest.getValue()) {
                    String environment = latest.getKey();
                    long version = latest.getValue();
                    store.find(environment, version).ifPresent(d -> install(environment, new Current(version,
                            d.sha256(), store.bundle(environment, version).orElseThrow())));
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Deployment refresh failed: " + e.getMessage());
        }
    }

    /**
     * Waits until the environment's bundle is not the one hashed {@code knownHash}, or {@code timeout} passes.
     *
     * @return the bundle in force when it returns (unchanged when the wait ran out)
     */
    public Current await(String environment, @Nullable String knownHash, Duration timeout) throws InterruptedException {
        CompletableFuture<Void> change = versionChanged.computeIfAbsent(environment, e -> new CompletableFuture<>());
        Current now = current(environment);
        if (knownHash == null || !now.sha256().equals(knownHash) || timeout.isZero()) {
            return now;
        }
        waitFor(change, timeout);
        return current(environment);
    }

    /** A pod of the environment reported on this replica. */
    public void reported(String environment) {
        fire(podReported, environment);
    }

    /** Waits at most {@code timeout} for a pod report on this replica. */
    public void awaitReport(String environment, Duration timeout) throws InterruptedException {
        waitFor(podReported.computeIfAbsent(environment, e -> new CompletableFuture<>()), timeout);
    }

    private static void fire(Map<String, CompletableFuture<Void>> futures, String environment) {
        CompletableFuture<Void> previous = futures.put(environment, new CompletableFuture<>());
        if (previous != null) {
            previous.complete(null);
        }
    }

    private static void waitFor(CompletableFuture<Void> future, Duration timeout) throws InterruptedException {
        try {
            future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // the wait ran out: the caller answers with what is current
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    static String text(byte[] json) {
        return new String(json, StandardCharsets.UTF_8);
    }
}
