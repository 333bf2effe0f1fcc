package io.pylon.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * deploy/kubernetes as an operator applies it, against a real kube-apiserver: server-side dry run of every object,
 * the apply itself, the RBAC as shipped (what the discovery service account may and may not do), and the pod
 * templates as the API server stored them (probes, resources, security context, volumes).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ManifestsOnApiServerTest {
    private static final String BASE = "deploy/kubernetes";
    private static final String SINGLE_NODE = "deploy/overlays/single-node";
    private static final List<String> MODULES = List.of("manager", "worker", "cache", "integration", "portal");

    private static LocalApiServer kube;

    @BeforeAll
    static void start() {
        kube = LocalApiServer.start();
    }

    @AfterAll
    static void stop() {
        if (kube != null) {
            kube.close();
        }
    }

    /** kind/name of every object kustomize renders from a folder. */
    private static Set<String> rendered(String dir) {
        Set<String> names = new TreeSet<>();
        for (JsonNode object : Manifests.render(dir)) {
            names.add(object.path("kind").asText().toLowerCase() + "/" + object.path("metadata").path("name").asText());
        }
        return names;
    }

    private static Set<String> names(String kubectlOutput) {
        Set<String> names = new TreeSet<>();
        // -o name prints kind.group/name; the test compares kind/name
        kubectlOutput.lines().filter(l -> !l.isBlank()).forEach(l -> names.add(l.replaceFirst("\\.[a-z0-9.]+/", "/").strip()));
        return names;
    }

    @Test
    @Order(1)
    void theServerAcceptsEveryObjectOfTheBaseInADryRun() {
        assertThat(rendered(BASE)).contains("deployment/pylon-worker", "role/pylon-pod-reader", "namespace/pylon");
        assertTheServerAcceptsEveryObjectInADryRun(BASE);
    }

    @Test
    @Order(1)
    void theServerAcceptsEveryObjectOfTheSingleNodeOverlayInADryRun() {
        assertTheServerAcceptsEveryObjectInADryRun(SINGLE_NODE);
    }

    private static void assertTheServerAcceptsEveryObjectInADryRun(String dir) {
        Set<String> expected = rendered(dir);
        // the namespace must exist for a server-side dry run of the namespaced objects
        kube.kubectl("apply", "-f", path(BASE + "/namespace.yaml")).ok();

        Command dryRun = kube.kubectl("apply", "-k", path(dir), "--dry-run=server", "-o", "name");

        assertThat(dryRun.exitCode()).as("%s", dryRun).isZero();
        assertThat(names(dryRun.out())).isEqualTo(expected);
    }

    @Test
    @Order(2)
    void applyInstallsTheBaseAndASecondApplyChangesNothing() {
        Command first = kube.kubectl("apply", "-k", path(BASE));
        assertThat(first.exitCode()).as("%s", first).isZero();

        Command second = kube.kubectl("apply", "-k", path(BASE));

        assertThat(second.exitCode()).as("%s", second).isZero();
        assertThat(second.out().lines().filter(l -> !l.isBlank()).toList()).allMatch(l -> l.endsWith(" unchanged"));
    }

    @Test
    @Order(3)
    void theDiscoveryServiceAccountMayReadPodsOfItsNamespaceAndNothingElse() {
        String discovery = "system:serviceaccount:pylon:pylon-discovery";
        for (String verb : List.of("get", "list", "watch")) {
            assertThat(canI(discovery, "pylon", verb, "pods")).as("%s %s pods", discovery, verb).isTrue();
        }
        for (String verb : List.of("create", "update", "patch", "delete", "deletecollection")) {
            assertThat(canI(discovery, "pylon", verb, "pods")).as("%s %s pods", discovery, verb).isFalse();
        }
        for (String subresource : List.of("status", "exec", "log", "portforward", "eviction")) {
            for (String verb : List.of("get", "create", "patch")) {
                assertThat(canI(discovery, "pylon", verb, "pods", "--subresource=" + subresource))
                        .as("%s %s pods/%s", discovery, verb, subresource).isFalse();
            }
        }
        for (String resource : List.of("secrets", "configmaps", "services",
                "endpoints", "deployments.apps", "serviceaccounts", "roles.rbac.authorization.k8s.io")) {
            assertThat(canI(discovery, "pylon", "get", resource)).as("%s get %s", discovery, resource).isFalse();
        }
        assertThat(canI(discovery, "default", "list", "pods")).as("pods of another namespace").isFalse();
        assertThat(canI(discovery, "kube-system", "watch", "pods")).as("pods of kube-system").isFalse();
    }

    @Test
    @Order(3)
    void theOtherModulesServiceAccountMayNotReadPods() {
        String plain = "system:serviceaccount:pylon:pylon";
        for (String verb : List.of("get", "list", "watch")) {
            assertThat(canI(plain, "pylon", verb, "pods")).as("%s %s pods", plain, verb).isFalse();
        }
    }

    @Test
    @Order(3)
    void aRealTokenOfTheDiscoveryAccountListsPodsAndIsRefusedSecrets() {
        Path kubeconfig = kube.serviceAccountKubeconfig("pylon", "pylon-discovery");
        String kubectl = DeployTools.tool("kubectl");

        Command pods = Command.run(kubectl, "--kubeconfig", kubeconfig.toString(), "-n", "pylon", "get", "pods", "-o", "name");
        Command secrets = Command.run(kubectl, "--kubeconfig", kubeconfig.toString(), "-n", "pylon", "get", "secrets");

        assertThat(pods.exitCode()).as("%s", pods).isZero();
        assertThat(secrets.exitCode()).as("%s", secrets).isNotZero();
        assertThat(secrets.err()).contains("forbidden").contains("system:serviceaccount:pylon:pylon-discovery");
    }

    @Test
    @Order(4)
    void everyPodTemplateAsStoredHasProbesResourcesAndTheRestrictedSecurityContext() throws Exception {
        JsonNode deployments = Json.MAPPER.readTree(kube.kubectl("-n", "pylon", "get", "deployments", "-o", "json").ok());
        List<String> seen = new ArrayList<>();
        for (JsonNode deployment : deployments.path("items")) {
            String name = deployment.path("metadata").path("name").asText();
            seen.add(name);
            JsonNode pod = deployment.path("spec").path("template").path("spec");
            JsonNode podSecurity = pod.path("securityContext");
            assertThat(podSecurity.path("runAsNonRoot").asBoolean()).as(name).isTrue();
            assertThat(podSecurity.path("runAsUser").asInt()).as(name).isEqualTo(10001);
            assertThat(podSecurity.path("runAsGroup").asInt()).as(name).isEqualTo(10001);
            assertThat(podSecurity.path("seccompProfile").path("type").asText()).as(name).isEqualTo("RuntimeDefault");
            for (JsonNode container : pod.path("containers")) {
                JsonNode security = container.path("securityContext");
                assertThat(security.path("readOnlyRootFilesystem").asBoolean()).as(name).isTrue();
                assertThat(security.path("allowPrivilegeEscalation").asBoolean(true)).as(name).isFalse();
                assertThat(security.path("capabilities").path("drop").toString()).as(name).isEqualTo("[\"ALL\"]");
                assertThat(security.path("capabilities").has("add")).as(name).isFalse();
                for (String kind : List.of("requests", "limits")) {
                    assertThat(container.path("resources").path(kind).path("cpu").asText()).as("%s %s cpu", name, kind).isNotEmpty();
                    assertThat(container.path("resources").path(kind).path("memory").asText()).as("%s %s memory", name, kind).isNotEmpty();
                }
                assertThat(container.path("startupProbe").path("httpGet").path("path").asText()).as(name)
                        .isEqualTo("/platform/management/health/live");
                assertThat(container.path("livenessProbe").path("httpGet").path("path").asText()).as(name)
                        .isEqualTo("/platform/management/health/live");
                assertThat(container.path("readinessProbe").path("httpGet").path("path").asText()).as(name)
                        .isEqualTo("/platform/management/health/ready");
                List<String> mounts = new ArrayList<>();
                container.path("volumeMounts").forEach(m -> mounts.add(m.path("mountPath").asText()));
                assertThat(mounts).as(name).contains("/tmp", "/var/lib/pylon");
            }
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(MODULES.stream().map(m -> "pylon-" + m).toList());
    }

    private static String path(String relative) {
        return DeployTools.ROOT.resolve(relative).toString();
    }

    private static boolean canI(String user, String namespace, String verb, String resource, String... more) {
        List<String> args = new ArrayList<>(List.of("auth", "can-i", verb, resource, "-n", namespace, "--as", user));
        args.addAll(List.of(more));
        Command answer = kube.kubectl(args.toArray(String[]::new));
        assertThat(answer.out().strip()).as("%s", answer).isIn("yes", "no");
        return answer.out().strip().equals("yes");
    }
}
