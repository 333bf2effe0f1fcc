package io.pylon.core.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.pylon.core.config.SettingType;
import io.pylon.core.storage.StorageSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The manifests in deploy/kubernetes, rendered by {@code kubectl kustomize} when kubectl is installed (else the
 * resource files read one by one), checked against the interface's port table and the RBAC the broadcast needs.
 */
class KubernetesManifestsTest {
    private static final Path DIR = Path.of("..", "deploy", "kubernetes");
    private static final YAMLMapper YAML = new YAMLMapper();

    /** The seed's table: module, Service type, internal port, node port (0: none). */
    private record PortRow(String module, String type, int port, int nodePort) {
    }

    private static final List<PortRow> TABLE = List.of(
            new PortRow("manager", "NodePort", 8080, 32080),
            new PortRow("worker", "NodePort", 8091, 30080),
            new PortRow("cache", "ClusterIP", 8090, 0),
            new PortRow("integration", "NodePort", 8092, 30088),
            new PortRow("portal", "NodePort", 8080, 32090));

    private static List<JsonNode> resources;

    @BeforeAll
    static void render() throws Exception {
        resources = new ArrayList<>();
        String yaml = kustomize();
        if (yaml == null) {
            JsonNode kustomization = YAML.readTree(DIR.resolve("kustomization.yaml").toFile());
            StringBuilder all = new StringBuilder();
            for (JsonNode file : kustomization.path("resources")) {
                all.append(Files.readString(DIR.resolve(file.asText()))).append("\n---\n");
            }
            yaml = all.toString();
        }
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                if (doc != null && doc.has("kind")) {
                    resources.add(doc);
                }
            }
        }
    }

    private static String kustomize() throws InterruptedException {
        Path kubectl = Path.of("/usr/bin/kubectl");
        if (!Files.isExecutable(kubectl)) {
            return null;
        }
        try {
            Process process = new ProcessBuilder(kubectl.toString(), "kustomize", DIR.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            boolean done = process.waitFor(60, TimeUnit.SECONDS);
            assertThat(done && process.exitValue() == 0).as("kubectl kustomize renders the manifests").isTrue();
            return out;
        } catch (IOException e) {
            return null;
        }
    }

    private static List<JsonNode> ofKind(String kind) {
        return resources.stream().filter(r -> r.path("kind").asText().equals(kind)).toList();
    }

    private static JsonNode named(String kind, String name) {
        return ofKind(kind).stream().filter(r -> r.path("metadata").path("name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(kind + " " + name + " is missing"));
    }

    private static JsonNode container(String module) {
        return named("Deployment", "pylon-" + module).path("spec").path("template").path("spec").path("containers").get(0);
    }

    private static Map<String, JsonNode> env(String module) {
        Map<String, JsonNode> env = new HashMap<>();
        container(module).path("env").forEach(e -> env.put(e.path("name").asText(), e));
        return env;
    }

    @Test
    void servicesMatchThePortTableOfTheInterface() {
        for (PortRow row : TABLE) {
            JsonNode service = named("Service", "pylon-" + row.module());
            assertThat(service.path("spec").path("type").asText()).as(row.module()).isEqualTo(row.type());
            assertThat(service.path("spec").path("selector").path("app").asText()).isEqualTo(row.module());
            JsonNode ports = service.path("spec").path("ports");
            assertThat(ports).as(row.module()).hasSize(1);
            assertThat(ports.get(0).path("port").asInt()).as(row.module()).isEqualTo(row.port());
            if (row.nodePort() == 0) {
                assertThat(ports.get(0).has("nodePort")).as(row.module()).isFalse();
            } else {
                assertThat(ports.get(0).path("nodePort").asInt()).as(row.module()).isEqualTo(row.nodePort());
            }
            JsonNode containerPort = container(row.module()).path("ports").get(0);
            assertThat(containerPort.path("name").asText()).isEqualTo("http");
            assertThat(containerPort.path("containerPort").asInt()).as(row.module()).isEqualTo(row.port());
        }
    }

    @Test
    void workerAndCacheHaveHeadlessServicesAndTheGridPort() {
        for (String module : List.of("worker", "cache")) {
            JsonNode headless = named("Service", "pylon-" + module + "-headless");
            assertThat(headless.path("spec").path("clusterIP").asText()).isEqualTo("None");
            assertThat(headless.path("spec").path("publishNotReadyAddresses").asBoolean()).isTrue();
        }
        Set<Integer> cachePorts = new java.util.HashSet<>();
        named("Service", "pylon-cache-headless").path("spec").path("ports").forEach(p -> cachePorts.add(p.path("port").asInt()));
        assertThat(cachePorts).containsExactlyInAnyOrder(8090, 5701);
        assertThat(env("cache").get("PYLON_GRID_KUBERNETES_SERVICE_DNS").path("value").asText())
                .startsWith("pylon-cache-headless.");
        assertThat(env("worker").get("PYLON_CACHE_ADDRESSES").path("value").asText()).isEqualTo("pylon-cache-headless:5701");
        // the Manager writes each deployed bundle's copy to the same grid
        assertThat(env("manager").get("PYLON_CACHE_ADDRESSES").path("value").asText()).isEqualTo("pylon-cache-headless:5701");
    }

    @Test
    void workersFollowTheManagerOfTheirEnvironment() {
        assertThat(env("worker").get("PYLON_WORKER_CONFIG_SOURCE").path("value").asText()).isEqualTo("manager");
        String managerUrl = env("worker").get("PYLON_WORKER_MANAGER_URL").path("value").asText();
        assertThat(managerUrl).isEqualTo("http://pylon-manager:8080");
        // the Manager creates the environment whose ID the Workers present, with the same secret
        String urls = env("manager").get("PYLON_MANAGER_BOOTSTRAP_ENVIRONMENT_URLS").path("value").asText();
        assertThat(urls).contains("worker=", "cache=", "manager=" + managerUrl);
        assertThat(env("manager").get("PYLON_ENVIRONMENT_ID").path("valueFrom").path("secretKeyRef").path("name").asText())
                .isEqualTo(env("worker").get("PYLON_ENVIRONMENT_ID").path("valueFrom").path("secretKeyRef").path("name").asText());
    }

    @Test
    void theRoleOnlyReadsPodsAndIsBoundOnlyToWorkerAndCache() {
        List<JsonNode> roles = ofKind("Role");
        assertThat(roles).hasSize(1);
        assertThat(ofKind("ClusterRole")).isEmpty();
        assertThat(ofKind("ClusterRoleBinding")).isEmpty();
        JsonNode rules = roles.getFirst().path("rules");
        assertThat(rules).hasSize(1);
        assertThat(texts(rules.get(0).path("apiGroups"))).containsExactly("");
        assertThat(texts(rules.get(0).path("resources"))).containsExactly("pods");
        assertThat(texts(rules.get(0).path("verbs"))).containsExactlyInAnyOrder("get", "list", "watch");

        List<JsonNode> bindings = ofKind("RoleBinding");
        assertThat(bindings).hasSize(1);
        JsonNode binding = bindings.getFirst();
        assertThat(binding.path("roleRef").path("name").asText()).isEqualTo(roles.getFirst().path("metadata").path("name").asText());
        assertThat(binding.path("subjects")).hasSize(1);
        String account = binding.path("subjects").get(0).path("name").asText();

        Set<String> bound = ofKind("Deployment").stream()
                .filter(d -> d.path("spec").path("template").path("spec").path("serviceAccountName").asText().equals(account))
                .map(d -> d.path("metadata").path("name").asText()).collect(Collectors.toSet());
        assertThat(bound).containsExactlyInAnyOrder("pylon-worker", "pylon-cache");
        for (String module : List.of("manager", "integration", "portal")) {
            JsonNode pod = named("Deployment", "pylon-" + module).path("spec").path("template").path("spec");
            assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).as(module).isFalse();
        }
    }

    @Test
    void everyModuleHasProbesDownwardApiResourcesAndItsModuleArgument() {
        assertThat(ofKind("Deployment")).hasSize(5);
        for (PortRow row : TABLE) {
            JsonNode container = container(row.module());
            assertThat(texts(container.path("args"))).containsExactly("run", row.module());
            assertThat(container.path("livenessProbe").path("httpGet").path("path").asText())
                    .isEqualTo("/platform/management/health/live");
            assertThat(container.path("readinessProbe").path("httpGet").path("path").asText())
                    .isEqualTo("/platform/management/health/ready");
            Map<String, JsonNode> env = env(row.module());
            assertThat(fieldRef(env, "PYLON_POD_NAME")).isEqualTo("metadata.name");
            assertThat(fieldRef(env, "PYLON_POD_IP")).isEqualTo("status.podIP");
            assertThat(fieldRef(env, "PYLON_POD_NAMESPACE")).isEqualTo("metadata.namespace");
            assertThat(fieldRef(env, "PYLON_POD_NODE")).isEqualTo("spec.nodeName");
            for (String kind : List.of("requests", "limits")) {
                assertThat(container.path("resources").path(kind).has("cpu")).as(row.module() + " " + kind).isTrue();
                assertThat(container.path("resources").path(kind).has("memory")).as(row.module() + " " + kind).isTrue();
            }
        }
        for (String module : List.of("worker", "cache", "manager")) {
            JsonNode secret = env(module).get("PYLON_ENVIRONMENT_ID").path("valueFrom").path("secretKeyRef");
            assertThat(secret.path("name").asText()).as(module).isEqualTo("pylon-environment");
            assertThat(env(module).get("PYLON_ENVIRONMENT_ID").has("value")).isFalse();
        }
    }

    /**
     * The downward API cannot read an emptyDir's sizeLimit, so the data budget is given beside it: below it (the kubelet
     * evicts the pod past it) by a headroom for the JVM's own files, and not so far below that the volume is wasted.
     */
    @Test
    void podsServingDiagnosticsGiveADataBudgetThatFollowsTheDataVolumeSizeLimit() {
        SettingType<Long> quantity = SettingType.byteSize(1, Long.MAX_VALUE);
        for (String module : List.of("worker", "cache", "integration")) {
            JsonNode pod = named("Deployment", "pylon-" + module).path("spec").path("template").path("spec");
            JsonNode data = null;
            for (JsonNode volume : pod.path("volumes")) {
                if (volume.path("name").asText().equals("data")) {
                    data = volume;
                }
            }
            assertThat(data).as(module + " has a data volume").isNotNull();
            long sizeLimit = quantity.parse(data.path("emptyDir").path("sizeLimit").asText());
            JsonNode budget = env(module).get("PYLON_DATA_BUDGET");
            assertThat(budget).as(module + " sets PYLON_DATA_BUDGET").isNotNull();
            long value = io.pylon.core.config.Settings.of(Map.of(StorageSettings.BUDGET.key(), budget.path("value").asText()))
                    .get(StorageSettings.BUDGET);
            assertThat(sizeLimit - value).as(module + ": sizeLimit minus the budget")
                    .isBetween(Math.min(256L << 20, sizeLimit / 4), sizeLimit / 4);
        }
    }

    @Test
    void networkPoliciesLetOnlyCacheAndWorkerPodsReachTheGridAndEachModuleOnlyOnItsPort() {
        JsonNode deny = named("NetworkPolicy", "pylon-default-deny-ingress").path("spec");
        assertThat(deny.path("podSelector").isEmpty()).as("the default deny selects every pod").isTrue();
        assertThat(texts(deny.path("policyTypes"))).contains("Ingress");
        assertThat(deny.path("ingress").isEmpty()).isTrue();

        assertThat(sources("cache", 5701)).containsExactlyInAnyOrder("app=cache", "app=worker", "app=manager");
        assertThat(sources("cache", 8090)).contains("app=manager", "app=cache").doesNotContain(EVERYONE);
        for (PortRow row : TABLE) {
            if (!row.type().equals("NodePort")) {
                continue;
            }
            assertThat(sources(row.module(), row.port())).as(row.module() + " behind its node port").containsExactly(EVERYONE);
            assertThat(sources(row.module(), 5701)).as(row.module() + " on 5701").isEmpty();
            assertThat(sources(row.module(), 9999)).as(row.module() + " on a port it does not serve").isEmpty();
        }
        assertThat(sources("cache", 9999)).isEmpty();
    }

    private static final String EVERYONE = "*";

    /**
     * Who the namespace's NetworkPolicies let reach {@code port} of a module's pods: {@value #EVERYONE} for any
     * source, {@code key=value} for a pod selector's labels, {@code ns:...} or {@code ip:...} for the other kinds.
     */
    private static Set<String> sources(String module, int port) {
        JsonNode podLabels = named("Deployment", "pylon-" + module).path("spec").path("template").path("metadata").path("labels");
        Set<String> sources = new java.util.TreeSet<>();
        for (JsonNode policy : ofKind("NetworkPolicy")) {
            JsonNode spec = policy.path("spec");
            if (!selects(spec.path("podSelector"), podLabels)) {
                continue;
            }
            for (JsonNode rule : spec.path("ingress")) {
                assertThat(rule.path("ports").isEmpty()).as(policy.path("metadata").path("name") + " opens every port").isFalse();
                boolean coversPort = false;
                for (JsonNode p : rule.path("ports")) {
                    coversPort |= p.path("port").asInt() == port;
                }
                if (!coversPort) {
                    continue;
                }
                if (rule.path("from").isEmpty()) {
                    sources.add(EVERYONE);
                }
                for (JsonNode from : rule.path("from")) {
                    if (from.has("namespaceSelector")) {
                        sources.add("ns:" + from.path("namespaceSelector"));
                    } else if (from.has("ipBlock")) {
                        sources.add("ip:" + from.path("ipBlock"));
                    } else {
                        from.path("podSelector").path("matchLabels").properties()
                                .forEach(label -> sources.add(label.getKey() + "=" + label.getValue().asText()));
                    }
                }
            }
        }
        return sources;
    }

    private static boolean selects(JsonNode selector, JsonNode labels) {
        for (var label : selector.path("matchLabels").properties()) {
            if (!label.getValue().asText().equals(labels.path(label.getKey()).asText(null))) {
                return false;
            }
        }
        return !selector.has("matchExpressions");
    }

    private static String fieldRef(Map<String, JsonNode> env, String name) {
        return env.get(name).path("valueFrom").path("fieldRef").path("fieldPath").asText();
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }
}
