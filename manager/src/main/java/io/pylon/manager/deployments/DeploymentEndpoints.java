package io.pylon.manager.deployments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.config.SettingType;
import io.pylon.core.http.Json;
import io.pylon.core.http.Routes;
import io.pylon.gateway.model.ProxyParser;
import io.pylon.manager.api.ApiException;
import io.pylon.manager.api.Principal;
import io.pylon.manager.api.RequestBodies;
import io.pylon.manager.api.Secured;
import io.pylon.manager.api.SourceAddress;
import io.pylon.manager.audit.AuditLog;
import io.pylon.manager.environments.EnvironmentStore;
import io.pylon.manager.proxies.ProxyRevision;
import io.pylon.manager.proxies.ProxyStore;

import org.jspecify.annotations.Nullable;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Deployments of an environment (deploy, history, rollback) and its gateway status. Operators and admins deploy;
 * everyone with a token reads.
 */
public final class DeploymentEndpoints {
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(10);
    public static final Duration MAX_WAIT = Duration.ofMinutes(2);
    private static final int MAX_LIST = 10_000;

    private final EnvironmentStore environments;
    private final ProxyStore proxies;
    private final DeploymentStore store;
    private final Deployer deployer;
    private final BundleWatch watch;
    private final AuditLog audit;
    private final Clock clock;
    private final @Nullable GridBundleCopy gridCopy;

    public DeploymentEndpoints(EnvironmentStore environments, ProxyStore proxies, DeploymentStore store,
                               Deployer deployer, BundleWatch watch, AuditLog audit, Clock clock,
                               @Nullable GridBundleCopy gridCopy) {
        this.gridCopy = gridCopy;
        this.environments = environments;
        this.proxies = proxies;
        this.store = store;
        this.deployer = deployer;
        this.watch = watch;
        this.audit = audit;
        this.clock = clock;
    }

    public void register(Routes routes, Secured secured) {
        routes.post("/apiops/environments/{name}/deployments", secured.operator(this::deploy));
        routes.get("/apiops/environments/{name}/deployments", secured.viewer(this::history));
        routes.get("/apiops/environments/{name}/deployments/{version}", secured.viewer(this::one));
        routes.post("/apiops/environments/{name}/deployments/{version}/rollback", secured.operator(this::rollback));
        routes.get("/apiops/environments/{name}/gateway-status", secured.viewer(this::status));
    }

    private void deploy(ServerRequest req, ServerResponse res, Principal principal) {
        Instant started = clock.instant();
        String environment = environment(req);
        ObjectNode body = RequestBodies.jsonObject(req);
        RequestBodies.onlyFields(body, Set.of("proxies", "undeploy", "comment", "wait"));
        Duration wait = wait(body);
        String comment = comment(body);
        Map<String, Deployer.Entry> snapshot = new TreeMap<>(deployer.deployed(environment));
        JsonNode list = body.get("proxies");
        int changes = 0;
        if (list != null && !list.isNull()) {
            if (!list.isArray() || list.size() > MAX_LIST) {
                throw ApiException.badRequest("Field 'proxies' must be a list of proxy names (or {name, revision}).");
            }
            for (int i = 0; i < list.size(); i++) {
                ProxyRevision revision = revisionOf(list.get(i), "proxies[" + i + "]");
                snapshot.put(revision.name(), new Deployer.Entry(revision.name(), revision.revision(),
                        revision.definition()));
                changes++;
            }
        }
        JsonNode undeploy = body.get("undeploy");
        if (undeploy != null && !undeploy.isNull()) {
            if (!undeploy.isArray() || undeploy.size() > MAX_LIST) {
                throw ApiException.badRequest("Field 'undeploy' must be a list of proxy names.");
            }
            for (int i = 0; i < undeploy.size(); i++) {
                String name = name(undeploy.get(i), "undeploy[" + i + "]");
                if (snapshot.remove(name) == null) {
                    throw ApiException.badRequest("Field 'undeploy[" + i + "]': proxy '" + name + "' is not deployed to '"
                            + environment + "'.");
                }
                changes++;
            }
        }
        if (changes == 0) {
            throw ApiException.badRequest("Give at least one proxy in 'proxies' or 'undeploy'.");
        }
        Deployment deployment = deployer.write(environment, snapshot, "deploy", null, principal.username(), comment);
        audit.record(principal.username(), "deployment.created", "environment:" + environment + ":v"
                + deployment.version(), SourceAddress.of(req), "success");
        answer(res, deployment, wait, started);
    }

    private void rollback(ServerRequest req, ServerResponse res, Principal principal) {
        Instant started = clock.instant();
        String environment = environment(req);
        long version = version(req);
        Deployment target = store.find(environment, version).orElseThrow(() -> ApiException.notFound(
                "Environment '" + environment + "' has no deployment " + version + "."));
        ObjectNode body = req.content().hasEntity() ? RequestBodies.jsonObject(req)
                : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        RequestBodies.onlyFields(body, Set.of("comment", "wait"));
        Duration wait = wait(body);
        String comment = body.has("comment") ? comment(body) : "Rollback to version " + version;
        Deployment deployment = deployer.write(environment, deployer.entries(target), "rollback", version,
                principal.username(), comment);
        audit.record(principal.username(), "deployment.rolled-back", "environment:" + environment + ":v"
                + deployment.version() + "<-v" + version, SourceAddress.of(req), "success");
        answer(res, deployment, wait, started);
    }

    private void answer(ServerResponse res, Deployment deployment, Duration wait, Instant started) {
        Json.send(res, Status.CREATED_201, awaited(deployer, deployment, Map.of(), wait, started));
    }

    /**
     * The answer to a call that wrote {@code deployment}: its version and hash, {@code more}, and what the pods did
     * within {@code wait} (the deploy is written already; the wait only decides what the answer can tell).
     */
    static Map<String, Object> awaited(Deployer deployer, Deployment deployment, Map<String, Object> more,
                                       Duration wait, Instant started) {
        Map<String, Object> result;
        try {
            result = deployer.awaitPods(deployment, wait, started);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("version", deployment.version());
        answer.put("hash", deployment.sha256());
        answer.putAll(more);
        answer.put("deploymentResult", result);
        return answer;
    }

    private void history(ServerRequest req, ServerResponse res, Principal principal) {
        String environment = environment(req);
        int limit = 100;
        String text = req.query().first("limit").orElse(null);
        if (text != null) {
            try {
                limit = Integer.parseInt(text);
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1 || limit > 1000) {
                throw ApiException.badRequest("Parameter 'limit' must be a whole number from 1 to 1000.");
            }
        }
        List<Deployment> history = store.history(environment, limit);
        Map<Long, Integer> counts = history.isEmpty() ? Map.of()
                : store.proxyCounts(environment, history.getLast().version(), history.getFirst().version());
        Json.send(res, Map.of("environment", environment, "deployments", history.stream().map(d -> {
            Map<String, Object> row = d.toJson();
            row.remove("proxies"); // the snapshot is one version's (GET .../deployments/{version}); a page has the count
            row.put("proxyCount", counts.getOrDefault(d.version(), 0));
            return row;
        }).toList()));
    }

    private void one(ServerRequest req, ServerResponse res, Principal principal) {
        String environment = environment(req);
        long version = version(req);
        Deployment deployment = store.find(environment, version).orElseThrow(() -> ApiException.notFound(
                "Environment '" + environment + "' has no deployment " + version + "."));
        Json.send(res, deployment.toJson());
    }

    private void status(ServerRequest req, ServerResponse res, Principal principal) {
        String environment = environment(req);
        BundleWatch.Current current = watch.current(environment);
        Set<String> deployedNow = store.find(environment, current.version()).map(d -> d.proxies().keySet())
                .orElse(Set.of());
        Instant now = clock.instant();
        List<Map<String, Object>> pods = new ArrayList<>();
        Map<Long, Deployment> versions = new java.util.HashMap<>();
        for (GatewayPod pod : store.pods(environment)) {
            Map<String, Object> map = new LinkedHashMap<>();
            boolean live = pod.lastContact().isAfter(now.minus(Deployer.LIVE));
            boolean inSync = live && current.sha256().equals(pod.appliedHash());
            map.put("podName", pod.podName());
            map.put("podIp", pod.podIp());
            map.put("appliedVersion", pod.appliedVersion());
            map.put("appliedHash", pod.appliedHash());
            map.put("source", pod.source());
            map.put("lastContact", pod.lastContact().toString());
            map.put("state", !live ? "stale" : pod.rejectedVersion() != null
                    && pod.rejectedVersion() > (pod.appliedVersion() == null ? -1 : pod.appliedVersion())
                    ? "rejected" : inSync ? "in-sync" : "behind");
            map.put("inSync", inSync);
            map.put("rejectedVersion", pod.rejectedVersion());
            map.put("lastError", pod.lastError());
            List<String> orphans = new ArrayList<>();
            if (pod.appliedVersion() != null && pod.appliedVersion() > 0 && !inSync) {
                Deployment applied = versions.computeIfAbsent(pod.appliedVersion(),
                        v -> store.find(environment, v).orElse(null));
                if (applied != null && applied.sha256().equals(pod.appliedHash())) {
                    applied.proxies().keySet().stream().filter(p -> !deployedNow.contains(p)).forEach(orphans::add);
                }
            }
            map.put("orphanRoutes", orphans);
            pods.add(map);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("environment", environment);
        body.put("version", current.version());
        body.put("hash", current.sha256());
        body.put("gridCopy", gridCopy != null && gridCopy.environment().equals(environment) ? gridCopy.describe() : null);
        body.put("pods", pods);
        Json.send(res, body);
    }

    private ProxyRevision revisionOf(JsonNode item, String field) {
        String name;
        Integer revision = null;
        if (item.isObject()) {
            RequestBodies.onlyFields((ObjectNode) item, Set.of("name", "revision"));
            name = name(item.get("name") == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance()
                    : item.get("name"), field + ".name");
            JsonNode number = item.get("revision");
            if (number != null && !number.isNull()) {
                if (!number.canConvertToInt() || !number.isIntegralNumber() || number.asInt() < 1) {
                    throw ApiException.badRequest("Field '" + field + ".revision' must be a revision number.");
                }
                revision = number.asInt();
            }
        } else {
            name = name(item, field);
        }
        Integer wanted = revision;
        return (wanted == null ? proxies.latest(name) : proxies.revision(name, wanted)).orElseThrow(() ->
                ApiException.badRequest("Field '" + field + "': no proxy '" + name + "'"
                        + (wanted == null ? "" : " at revision " + wanted) + "."));
    }

    private static String name(JsonNode node, String field) {
        if (!node.isTextual() || !ProxyParser.NAME.matcher(node.asText()).matches()) {
            throw ApiException.badRequest("Field '" + field + "' must be a proxy name (1 to 64 letters, digits, '.', "
                    + "'_' or '-').");
        }
        return node.asText();
    }

    private static Duration wait(ObjectNode body) {
        String text = RequestBodies.text(body, "wait");
        if (text == null) {
            return DEFAULT_WAIT;
        }
        Duration wait;
        try {
            wait = SettingType.DURATION_TYPE.parse(text.strip());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("Field 'wait' must be a duration such as 10s (0s: do not wait).");
        }
        if (wait.isNegative() || wait.compareTo(MAX_WAIT) > 0) {
            throw ApiException.badRequest("Field 'wait' must be from 0s to " + MAX_WAIT.toSeconds() + "s.");
        }
        return wait;
    }

    private static String comment(ObjectNode body) {
        String comment = RequestBodies.text(body, "comment");
        if (comment == null) {
            return "";
        }
        if (comment.length() > 1000 || comment.chars().anyMatch(c -> c < 0x20 && c != '\t')) {
            throw ApiException.badRequest("Field 'comment' must be at most 1000 characters without control characters.");
        }
        return comment;
    }

    private String environment(ServerRequest req) {
        String name = req.path().pathParameters().get("name");
        if (environments.find(name).isEmpty()) {
            throw ApiException.notFound("No environment named '" + name + "'.");
        }
        return name;
    }

    private static long version(ServerRequest req) {
        String text = req.path().pathParameters().get("version");
        try {
            long version = Long.parseLong(text);
            if (version >= 1) {
                return version;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw ApiException.badRequest("The version in the path must be a deployment number (1 or more).");
    }
}
