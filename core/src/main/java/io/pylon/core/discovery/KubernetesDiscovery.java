package io.pylon.core.discovery;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.jspecify.annotations.Nullable;

import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The pods of this pod's namespace matching a label selector, kept current by a fabric8 informer (one list, then a
 * watch) rather than listed on every request. Running pods with an address are called; pods that exist but are not
 * running (Pending, Failed...) are listed with the reason they are not called.
 *
 * <p>Threading: a virtual thread builds the client and starts the informer; fabric8's threads keep the pod list and
 * report errors into an atomic reference; request threads read the informer's cache. {@link #close} may run on any
 * thread: the volatile {@code closed} flag makes a watch that starts after it stop at once.
 */
public final class KubernetesDiscovery implements PodDiscovery {
    private static final System.Logger LOG = System.getLogger(KubernetesDiscovery.class.getName());

    private final Supplier<String> scheme;
    private final String portName;
    private final int defaultPort;
    private final DiscoveredPod self;
    /** Until when a call waits for the first pod list; later calls do not wait (an unreachable API fails fast). */
    private final long syncDeadline;
    private final AtomicReference<String> lastError = new AtomicReference<>();
    /** Completes once the client exists and the informer runs; may then still be listing. */
    private final CompletableFuture<Watch> watch = new CompletableFuture<>();
    private volatile boolean closed;

    private record Watch(KubernetesClient client, SharedIndexInformer<Pod> informer, CompletableFuture<Void> synced) {
    }

    /**
     * Creates the client and starts watching in the background: the pod's start is held up neither by loading the
     * Kubernetes client nor by the API server.
     *
     * @param namespace the namespace to watch, or null for the client's own (the service account's)
     */
    public KubernetesDiscovery(Supplier<KubernetesClient> clients, @Nullable String namespace, String labelSelector, String portName,
                               int defaultPort, DiscoveredPod self, Duration syncWait) {
        this(clients, namespace, labelSelector, portName, defaultPort, self, syncWait, () -> "http");
    }

    /** @param scheme {@code http}, or {@code https} when the pods listen on TLS (asked for every pod listed) */
    public KubernetesDiscovery(Supplier<KubernetesClient> clients, @Nullable String namespace, String labelSelector, String portName,
                               int defaultPort, DiscoveredPod self, Duration syncWait, Supplier<String> scheme) {
        this.scheme = scheme;
        this.portName = portName;
        this.defaultPort = defaultPort;
        this.self = self;
        this.syncDeadline = System.nanoTime() + syncWait.toNanos();
        Thread.ofVirtual().name("pylon-kubernetes-discovery").start(() -> startWatch(clients, namespace, labelSelector));
    }

    private void startWatch(Supplier<KubernetesClient> clients, @Nullable String namespace, String labelSelector) {
        try {
            KubernetesClient client = clients.get();
            String ns = namespace != null ? namespace : client.getNamespace() != null ? client.getNamespace() : "default";
            SharedIndexInformer<Pod> informer = client.pods().inNamespace(ns).withLabelSelector(labelSelector).runnableInformer(0);
            informer.exceptionHandler((isStarted, t) -> {
                String message = describe(t);
                if (!message.equals(lastError.getAndSet(message))) {
                    LOG.log(Level.WARNING, "Kubernetes discovery (namespace " + ns + ", selector " + labelSelector
                            + "): " + message + "; retrying");
                }
                return true;
            });
            Watch started = new Watch(client, informer, informer.start().toCompletableFuture());
            watch.complete(started);
            if (closed) {
                stop(started);
            }
        } catch (RuntimeException e) {
            lastError.set(describe(e));
            LOG.log(Level.WARNING, "Kubernetes discovery cannot start: " + lastError.get());
            watch.completeExceptionally(e);
        }
    }

    @Override
    public DiscoveryMode mode() {
        return DiscoveryMode.KUBERNETES;
    }

    @Override
    public List<DiscoveredPod> pods() throws DiscoveryException {
        SharedIndexInformer<Pod> informer = awaitSync();
        List<DiscoveredPod> pods = new ArrayList<>();
        boolean selfListed = false;
        for (Pod pod : informer.getStore().list()) {
            String name = pod.getMetadata().getName();
            if (name.equals(self.podName())) {
                selfListed = true;
                pods.add(self);
            } else {
                pods.add(toDiscovered(pod));
            }
        }
        if (!selfListed) {
            pods.add(self);
        }
        return pods;
    }

    private SharedIndexInformer<Pod> awaitSync() throws DiscoveryException {
        try {
            Watch current = watch.get(Math.max(0, syncDeadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (!current.informer().hasSynced()) {
                current.synced().get(Math.max(0, syncDeadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            if (current.informer().hasSynced()) {
                return current.informer();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DiscoveryException("interrupted while waiting for the pod list");
        } catch (ExecutionException | TimeoutException e) {
            // reported below with the last error seen
        }
        String error = lastError.get();
        throw new DiscoveryException("no pod list from the Kubernetes API yet" + (error == null ? "" : " (" + error + ")"));
    }

    private DiscoveredPod toDiscovered(Pod pod) {
        String name = pod.getMetadata().getName();
        String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
        String phase = pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Unknown" : pod.getStatus().getPhase();
        if (!"Running".equals(phase)) {
            return DiscoveredPod.unavailable(name, ip, "pod is " + phase + ", not running");
        }
        if (ip == null || ip.isEmpty()) {
            return DiscoveredPod.unavailable(name, null, "pod has no IP address yet");
        }
        String host = ip.contains(":") ? "[" + ip + "]" : ip;
        return DiscoveredPod.callable(name, ip, URI.create(scheme.get() + "://" + host + ":" + port(pod)));
    }

    private int port(Pod pod) {
        if (pod.getSpec() != null && pod.getSpec().getContainers() != null) {
            for (var container : pod.getSpec().getContainers()) {
                if (container.getPorts() == null) {
                    continue;
                }
                for (ContainerPort port : container.getPorts()) {
                    if (portName.equals(port.getName()) && port.getContainerPort() != null) {
                        return port.getContainerPort();
                    }
                }
            }
        }
        return defaultPort;
    }

    private static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + root.getMessage();
        return message.length() > 300 ? message.substring(0, 300) + "..." : message;
    }

    @Override
    public void close() {
        closed = true;
        Watch current = watch.getNow(null);
        if (current != null) {
            stop(current);
        }
    }

    private static void stop(Watch current) {
        current.informer().close();
        current.client().close();
    }
}
