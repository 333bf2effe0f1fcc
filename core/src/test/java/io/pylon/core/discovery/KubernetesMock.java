package io.pylon.core.discovery;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.HashMap;

/** fabric8's mock Kubernetes API in CRUD mode on 127.0.0.1, plain HTTP, holding Pod objects for discovery tests. */
public final class KubernetesMock implements AutoCloseable {
    public static final String NAMESPACE = "pylon-test";

    private final KubernetesMockServer server;
    private final KubernetesClient client;

    public KubernetesMock() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        try {
            server.init(InetAddress.getByName("127.0.0.1"), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        client = server.createClient();
    }

    public String apiUrl() {
        return "http://127.0.0.1:" + server.getPort();
    }

    public KubernetesClient client() {
        return client;
    }

    /** A Worker pod object: label app=worker, phase and address as given, HTTP on the container port named http. */
    public static Pod pod(String name, String phase, String ip, int port) {
        return new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(NAMESPACE).addToLabels("app", "worker").endMetadata()
                .withNewSpec().addNewContainer().withName("worker").withImage("pylon:test")
                .addNewPort().withName("http").withContainerPort(port).endPort().endContainer().endSpec()
                .withNewStatus().withPhase(phase).withPodIP(ip).endStatus()
                .build();
    }

    public void create(Pod pod) {
        client.pods().inNamespace(NAMESPACE).resource(pod).create();
    }

    public void delete(String name) {
        client.pods().inNamespace(NAMESPACE).withName(name).delete();
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
