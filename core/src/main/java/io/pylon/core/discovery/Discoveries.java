package io.pylon.core.discovery;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.pylon.core.config.Settings;
import io.pylon.core.pod.PodIdentity;
import org.jspecify.annotations.Nullable;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/** Chooses and builds the discovery a pod uses, from its settings. */
public final class Discoveries {
    /** Where Kubernetes mounts the service-account token: its presence means "running inside a cluster". */
    public static final Path SERVICE_ACCOUNT_TOKEN = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

    /** How long a request waits for the first pod list of a freshly started informer. */
    private static final Duration KUBERNETES_SYNC_WAIT = Duration.ofSeconds(5);

    private Discoveries() {
    }

    /** The configured mode, else kubernetes inside a cluster, else static when a list is given, else self. */
    public static DiscoveryMode chooseMode(Settings settings, Path serviceAccountToken) {
        DiscoveryMode configured = settings.find(DiscoverySettings.MODE);
        if (configured != null) {
            return configured;
        }
        if (Files.isReadable(serviceAccountToken)) {
            return DiscoveryMode.KUBERNETES;
        }
        return settings.find(DiscoverySettings.STATIC) != null ? DiscoveryMode.STATIC : DiscoveryMode.SELF;
    }

    /**
     * The discovery for this pod. The Kubernetes client is created only when that mode is chosen.
     *
     * @param ownPort the port this pod listens on, which its peers share unless told otherwise
     */
    public static PodDiscovery create(Settings settings, PodIdentity identity, int ownPort) {
        return create(settings, identity, ownPort, SERVICE_ACCOUNT_TOKEN, () -> "http");
    }

    /**
     * @param scheme how the module's pods are called: {@code https} when their listener is TLS only (asked when pods
     *               are listed: the listener's TLS is known only once the module started)
     */
    public static PodDiscovery create(Settings settings, PodIdentity identity, int ownPort, Supplier<String> scheme) {
        return create(settings, identity, ownPort, SERVICE_ACCOUNT_TOKEN, scheme);
    }

    static PodDiscovery create(Settings settings, PodIdentity identity, int ownPort, Path serviceAccountToken) {
        return create(settings, identity, ownPort, serviceAccountToken, () -> "http");
    }

    static PodDiscovery create(Settings settings, PodIdentity identity, int ownPort, Path serviceAccountToken,
                               Supplier<String> scheme) {
        DiscoveredPod self = DiscoveredPod.callable(identity.podName(), identity.podIp(), null);
        Integer configuredPort = settings.find(DiscoverySettings.PORT);
        int peerPort = configuredPort != null ? configuredPort : ownPort;
        return switch (chooseMode(settings, serviceAccountToken)) {
            case KUBERNETES -> kubernetes(settings, identity, peerPort, self, scheme);
            case DNS -> new DnsDiscovery(orDefault(settings.find(DiscoverySettings.DNS_SERVICE),
                    "pylon-" + identity.module() + "-headless"), peerPort, self, scheme);
            case STATIC -> new StaticDiscovery(orDefault(settings.find(DiscoverySettings.STATIC), List.of()), self);
            case SELF -> new SelfDiscovery(self);
        };
    }

    private static PodDiscovery kubernetes(Settings settings, PodIdentity identity, int peerPort, DiscoveredPod self,
                                           Supplier<String> scheme) {
        URI apiUrl = settings.find(DiscoverySettings.API_URL);
        String selector = orDefault(settings.find(DiscoverySettings.LABEL_SELECTOR), "app=" + identity.module());
        return new KubernetesDiscovery(() -> client(apiUrl), identity.namespace(), selector,
                settings.get(DiscoverySettings.PORT_NAME), peerPort, self, KUBERNETES_SYNC_WAIT, scheme);
    }

    private static KubernetesClient client(@Nullable URI apiUrl) {
        Config config = Config.autoConfigure(null);
        if (apiUrl != null) {
            config.setMasterUrl(apiUrl.toString());
        }
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    private static <T> T orDefault(@Nullable T value, T fallback) {
        return value != null ? value : fallback;
    }
}
