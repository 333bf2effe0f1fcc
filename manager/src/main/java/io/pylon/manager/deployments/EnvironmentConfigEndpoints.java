package io.pylon.manager.deployments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.config.SettingType;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.Principal;
import io.pylon.manager.api.RequestBodies;
import io.pylon.manager.api.Secured;
import io.pylon.manager.api.SourceAddress;
import io.pylon.manager.audit.AuditLog;
import io.pylon.manager.environments.EnvironmentStore;
import io.pylon.manager.proxies.ProxyDefinitions;
import io.pylon.manager.proxies.ProxyRevision;
import io.pylon.manager.proxies.ProxyStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * An environment's whole gateway configuration as one YAML document: {@code GET} exports what is deployed,
 * {@code PUT} makes the document true (a new revision of each proxy whose definition differs, then one deployment of
 * exactly these proxies), so a Git repository can be the source of truth.
 */
public final class EnvironmentConfigEndpoints {
    /** Largest configuration document accepted. */
    public static final int MAX_DOCUMENT = 16 * 1024 * 1024;
    private static final YAMLMapper YAML = YAMLMapper.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES).build();

    private final EnvironmentStore environments;
    private final ProxyStore proxies;
    private final ProxyDefinitions definitions;
    private final Deployer deployer;
    private final DeploymentStore store;
    private final AuditLog audit;
    private final Clock clock;

    public EnvironmentConfigEndpoints(EnvironmentStore environments, ProxyStore proxies, ProxyDefinitions definitions,
                                      Deployer deployer, DeploymentStore store, AuditLog audit, Clock clock) {
        this.environments = environments;
        this.proxies = proxies;
        this.definitions = definitions;
        this.deployer = deployer;
        this.store = store;
        this.audit = audit;
        this.clock = clock;
    }

    public void register(Routes routes, Secured secured) {
        routes.get("/apiops/environments/{name}/config", secured.viewer(this::export));
        routes.put("/apiops/environments/{name}/config", secured.operator(this::importConfig));
    }

    private void export(ServerRequest req, ServerResponse res, Principal principal) {
        String environment = environment(req);
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("environment", environment);
        Optional<Deployment> latest = store.latest(environment);
        root.put("version", latest.map(Deployment::version).orElse(0L));
        ArrayNode list = root.putArray("proxies");
        latest.map(deployer::entries).orElseGet(TreeMap::new).values().forEach(e -> list.add(e.definition()));
        try {
            res.header(HeaderNames.CONTENT_TYPE, "application/yaml");
            res.send(YAML.writeValueAsBytes(root));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void importConfig(ServerRequest req, ServerResponse res, Principal principal) {
        Instant started = clock.instant();
        String environment = environment(req);
        JsonNode root = RequestBodies.document(req, MAX_DOCUMENT);
        if (!root.isObject()) {
            throw ApiException.badRequest("The document must be an object with a 'proxies' list.");
        }
        RequestBodies.onlyFields((ObjectNode) root, Set.of("environment", "version", "proxies"));
        JsonNode list = root.get("proxies");
        if (list == null || !list.isArray()) {
            throw ApiException.badRequest("Field 'proxies' is required: a list of proxy definitions.");
        }
        Duration wait = wait(req);
        Map<String, JsonNode> wanted = new LinkedHashMap<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode definition = definitions.validate(list.get(i));
            if (wanted.put(definition.get("name").asText(), definition) != null) {
                throw ApiException.badRequest("Field 'proxies[" + i + "].name': another proxy is named '"
                        + definition.get("name").asText() + "'.");
            }
        }
        Map<String, Deployer.Entry> snapshot = new TreeMap<>();
        Set<String> changed = new HashSet<>();
        String comment = "Imported into " + environment;
        for (Map.Entry<String, JsonNode> entry : wanted.entrySet()) {
            Optional<ProxyRevision> current = proxies.latest(entry.getKey());
            ProxyRevision revision;
            if (current.isPresent() && current.get().definition().equals(entry.getValue())) {
                revision = current.get();
            } else {
                ProxyStore.Change change = current.isEmpty()
                        ? proxies.create(entry.getKey(), entry.getValue(), null, principal.username(), comment, clock.instant())
                        : proxies.update(entry.getKey(), current.get().revision(), entry.getValue(),
                        current.get().openapi(), principal.username(), comment, clock.instant());
                if (!(change instanceof ProxyStore.Written written)) {
                    throw ApiException.conflict("Proxy '" + entry.getKey() + "' changed during the import; import again.");
                }
                revision = written.revision();
                changed.add(entry.getKey());
            }
            snapshot.put(entry.getKey(), new Deployer.Entry(entry.getKey(), revision.revision(), revision.definition()));
        }
        Deployment deployment = deployer.write(environment, snapshot, "import", null, principal.username(), comment);
        audit.record(principal.username(), "environment.config-imported", "environment:" + environment + ":v"
                + deployment.version(), SourceAddress.of(req), "success");
        Json.send(res, Status.OK_200, DeploymentEndpoints.awaited(deployer, deployment,
                Map.of("changedProxies", changed.stream().sorted().toList()), wait, started));
    }

    private static Duration wait(ServerRequest req) {
        String text = req.query().first("wait").orElse(null);
        if (text == null) {
            return DeploymentEndpoints.DEFAULT_WAIT;
        }
        try {
            Duration wait = SettingType.DURATION_TYPE.parse(text);
            if (!wait.isNegative() && wait.compareTo(DeploymentEndpoints.MAX_WAIT) <= 0) {
                return wait;
            }
        } catch (IllegalArgumentException e) {
            // refused below
        }
        throw ApiException.badRequest("Parameter 'wait' must be a duration from 0s to "
                + DeploymentEndpoints.MAX_WAIT.toSeconds() + "s.");
    }

    private String environment(ServerRequest req) {
        String name = req.path().pathParameters().get("name");
        if (environments.find(name).isEmpty()) {
            throw ApiException.notFound("No environment named '" + name + "'.");
        }
        return name;
    }
}
