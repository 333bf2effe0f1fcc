package io.pylon.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.oas.OpenApi30;
import io.pylon.core.http.Json;
import io.pylon.core.server.Pod;
import io.pylon.core.testing.FakeModule;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every operation of the served {@code openapi.yaml}, fuzzed from the document itself on a real Manager (and, behind
 * its console, a real diagnostics pod that allows 3 heavy calls per caller and minute and has a small data budget):
 * valid and invalid values for every path and query parameter and every body field (wrong types, out-of-range
 * numbers and dates, oversized, malformed and too deeply nested bodies, numbers too long, wrong media types, request
 * lines past 8 KiB), with no token, a junk token, a viewer's and an admin's. It fails on any 500, 501 or 503, on any
 * status the operation does not document (so the document lists every status the Manager answers), and on any JSON
 * body that does not match the documented schema.
 *
 * <p>Deterministic for a seed ({@code -Dpylon.fuzz.seed=}, printed on failure); bounded by rounds
 * ({@code -Dpylon.fuzz.rounds=}, 150 per operation) and time ({@code -Dpylon.fuzz.seconds=}, 60). 502 and 504 are
 * accepted only where documented: the console's answer when a module cannot be reached.
 */
class ManagementApiFuzzTest {
    private static final long SEED = Long.getLong("pylon.fuzz.seed", 20261125L);
    private static final int ROUNDS = Integer.getInteger("pylon.fuzz.rounds", 150);
    private static final Duration BUDGET = Duration.ofSeconds(Long.getLong("pylon.fuzz.seconds", 60));
    private static final Set<String> METHODS = Set.of("get", "post", "put", "patch", "delete");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String VIEWER = "fuzz-viewer";
    private static final String VIEWER_PASSWORD = "viewer-Passw0rd-fuzz";

    private static Pod worker;
    private static Path workerData;
    private static Pod pod;
    private static ManagerClient manager;
    /** Signed in once: the fuzz's wrong passwords for admin bring 429 to further sign-ins from this address. */
    private static String adminToken;
    private static JsonNode document;
    private static JsonSchemaFactory schemas;
    private static final Map<String, JsonSchema> compiled = new HashMap<>();

    private enum Caller { NONE, JUNK, VIEWER, ADMIN }

    private final Random random = new Random(SEED);
    private final Map<Caller, String> tokens = new HashMap<>();
    /** Path values for accounts: not the admin whose token the fuzz uses (a password reset would revoke it). */
    private final List<String> usernames = new ArrayList<>(List.of("nobody"));
    private final List<String> environments = new ArrayList<>(List.of("test", "missing-env"));
    private final List<String> failures = new ArrayList<>();
    private final Map<String, Set<Integer>> seen = new TreeMap<>();
    /** Whether the request being built is meant to be valid throughout (else values are mutated at random). */
    private boolean valid;

    @BeforeAll
    static void start() throws Exception {
        workerData = Files.createTempDirectory("pylon-fuzz-worker");
        worker = TestPods.start(new FakeModule("worker").servingDiagnostics(), "worker-fuzz", Map.of(
                "pylon.data.dir", workerData.toString(), "pylon.diagnostics.heavy-rate.per-caller", "3",
                "pylon.data.budget", "16Mi", "pylon.data.recordings.max-bytes", "4Mi"));
        String url = TestPods.baseUrl(worker);
        pod = ManagerClient.start("manager-fuzz", Map.of(
                "pylon.manager.bootstrap.environment-urls", "worker=" + url + ",cache=http://127.0.46.1:9",
                // the fuzz signs in with wrong passwords; only per account and address may it be throttled (429)
                "pylon.manager.signin.source-max-failures", "1000000",
                // flows are relayed to Integration: an address of this test's own where nothing listens (502)
                "pylon.manager.integration-url", "http://127.0.46.1:9"));
        manager = new ManagerClient(pod);
        adminToken = manager.adminToken();
        document = YAML.readTree(manager.get("/apiops/openapi.yaml", adminToken).body());
        schemas = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4, builder -> builder
                .metaSchema(OpenApi30.getInstance()).defaultMetaSchemaIri(OpenApi30.getInstance().getIri()));
    }

    @AfterAll
    static void stop() {
        if (pod != null) {
            pod.stop();
        }
        if (worker != null) {
            worker.stop();
        }
        TestPods.deleteTree(workerData);
    }

    private record Operation(String method, String path, JsonNode node, List<JsonNode> parameters) {
        String label() {
            return method + " " + path;
        }
    }

    @Test
    void everyOperationAnswersOnlyDocumentedStatusesAndBodies() {
        manager.createUser(adminToken, VIEWER, VIEWER_PASSWORD, "viewer");
        tokens.put(Caller.ADMIN, adminToken);
        tokens.put(Caller.VIEWER, manager.token(VIEWER, VIEWER_PASSWORD));
        tokens.put(Caller.JUNK, "pylon_at_" + "0".repeat(43));
        List<Operation> operations = operations();
        assertThat(operations).hasSizeGreaterThanOrEqualTo(22);

        long deadline = System.nanoTime() + BUDGET.toNanos();
        int requests = 0;
        for (int round = 0; round < ROUNDS && System.nanoTime() < deadline && failures.size() < 20; round++) {
            for (Operation operation : operations) {
                fuzz(operation, round);
                requests++;
            }
        }
        System.out.println("ManagementApiFuzzTest: seed " + SEED + ", " + requests + " requests; statuses seen: " + seen);
        assertThat(failures).as("seed " + SEED + " (rerun with -Dpylon.fuzz.seed=" + SEED + ")").isEmpty();
        // the fuzz reached beyond the guards: created things, and got past validation
        assertThat(seen.values().stream().flatMap(Set::stream).toList()).contains(200, 201, 400, 401, 403, 404);
    }

    /** An expiry past what the database and java.time hold was a 500 with a stack trace; it is a 400 naming the field. */
    @Test
    void aTokenExpiryBeyondYear9999IsRefusedNamingTheField() {
        for (String expiry : List.of("+1000000000-01-01T00:00:00Z", "+10000-01-01T00:00:00Z", "+294277-01-01T00:00:00Z")) {
            HttpResponse<String> response = manager.postJson("/apiops/tokens", adminToken,
                    "{\"name\":\"far\",\"expiresAt\":\"" + expiry + "\"}");
            assertThat(response.statusCode()).as(expiry + ": " + response.body()).isEqualTo(400);
            assertThat(ManagerClient.json(response).path("details").path("field").asText()).isEqualTo("expiresAt");
            assertThat(ManagerClient.json(response).path("error_description").asText()).contains("9999-12-31T23:59:59Z");
        }
        assertThat(manager.postJson("/apiops/tokens", adminToken,
                "{\"name\":\"last\",\"expiresAt\":\"9999-12-31T23:59:59Z\"}").statusCode()).isEqualTo(201);
    }

    private List<Operation> operations() {
        List<Operation> operations = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields();
        while (paths.hasNext()) {
            Map.Entry<String, JsonNode> path = paths.next();
            List<JsonNode> shared = new ArrayList<>();
            path.getValue().path("parameters").forEach(p -> shared.add(resolve(p)));
            path.getValue().fields().forEachRemaining(entry -> {
                if (METHODS.contains(entry.getKey())) {
                    List<JsonNode> parameters = new ArrayList<>(shared);
                    entry.getValue().path("parameters").forEach(p -> parameters.add(resolve(p)));
                    operations.add(new Operation(entry.getKey().toUpperCase(Locale.ROOT), path.getKey(), entry.getValue(),
                            parameters));
                }
            });
        }
        return operations;
    }

    private void fuzz(Operation operation, int round) {
        Caller caller = Caller.values()[random.nextInt(Caller.values().length)];
        boolean open = operation.node().has("security") && operation.node().path("security").isEmpty();
        if (round == 0 || !open && random.nextInt(3) == 0) {
            caller = Caller.ADMIN; // every operation is reached past authentication, and often
        } else if (open && random.nextInt(4) > 0) {
            caller = Caller.NONE;
        }
        valid = random.nextBoolean();
        StringBuilder path = new StringBuilder();
        Map<String, String> query = new LinkedHashMap<>();
        String template = operation.path();
        boolean longLine = random.nextInt(40) == 0;
        for (JsonNode parameter : operation.parameters()) {
            String name = parameter.path("name").asText();
            String in = parameter.path("in").asText();
            if ("path".equals(in)) {
                String value = longLine ? "x".repeat(9000) : pathValue(operation, name, resolve(parameter.path("schema")));
                template = template.replace("{" + name + "}", encodePath(value));
            } else if ("query".equals(in) && random.nextInt(valid ? 4 : 3) == (valid ? 0 : 1)) {
                query.put(name, queryValue(name, resolve(parameter.path("schema"))));
            }
        }
        if (random.nextInt(10) == 0) {
            query.put("unknown" + random.nextInt(3), text(random.nextInt(20)));
        }
        path.append(template);
        if (!query.isEmpty()) {
            path.append('?');
            query.forEach((k, v) -> path.append(enc(k)).append('=').append(enc(v)).append('&'));
            path.setLength(path.length() - 1);
        }

        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(TestPods.baseUrl(pod) + path))
                .timeout(Duration.ofSeconds(60));
        if (caller != Caller.NONE) {
            request.header("Authorization", "Bearer " + tokens.get(caller));
        }
        // a request line past the limit is answered 414 before its headers are read, so a body sent with it cannot be
        // drained and the close resets the connection under the answer: long lines go without a body
        String sent = longLine ? noBody(operation, request) : body(operation, request);
        HttpResponse<String> response;
        try {
            response = TestPods.client().send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            failures.add("no answer (" + e + "): " + operation.label() + " as " + caller + ": " + clip(path.toString()));
            return;
        }
        check(operation, caller, path.toString(), sent, response);
        learn(operation, response);
        if (response.statusCode() == 401 && (caller == Caller.VIEWER)) {
            tokens.put(Caller.VIEWER, manager.token(VIEWER, VIEWER_PASSWORD));
        }
    }

    private static String noBody(Operation operation, HttpRequest.Builder request) {
        request.method(operation.method(), HttpRequest.BodyPublishers.noBody());
        return "";
    }

    /** Sets method, media type and body from the operation's request body; answers what was sent, for the report. */
    private String body(Operation operation, HttpRequest.Builder request) {
        JsonNode requestBody = resolve(operation.node().path("requestBody"));
        if (requestBody.isMissingNode() || random.nextInt(12) == 0) {
            request.method(operation.method(), HttpRequest.BodyPublishers.noBody());
            return "";
        }
        Map.Entry<String, JsonNode> content = requestBody.path("content").fields().next();
        String mediaType = content.getKey();
        JsonNode schema = resolve(content.getValue().path("schema"));
        String body;
        int shape = valid ? 99 : random.nextInt(20);
        if (shape == 0) {
            body = "x".repeat(17 * 1024); // past the 16 KiB limit
        } else if (shape == 1) {
            body = "{\"unterminated\": ";
        } else if (shape == 2) {
            body = "[1, 2, 3]";
        } else if (shape == 3) {
            body = "[".repeat(1_500); // past Jackson's nesting limit, which reports no location
        } else if (shape == 4) {
            body = "{\"n\": " + "7".repeat(1_500) + "}"; // past its number length limit
        } else if ("application/x-www-form-urlencoded".equals(mediaType)) {
            StringBuilder form = new StringBuilder();
            value(schema, "", 0).fields().forEachRemaining(field -> form.append(enc(field.getKey())).append('=')
                    .append(enc(field.getValue().isTextual() ? field.getValue().asText() : field.getValue().toString()))
                    .append('&'));
            body = form.isEmpty() ? "" : form.substring(0, form.length() - 1);
        } else {
            body = value(schema, "", 0).toString();
        }
        if (!valid && random.nextInt(15) == 0) {
            mediaType = random.nextBoolean() ? "text/plain" : "application/xml";
        }
        request.header("Content-Type", mediaType);
        request.method(operation.method(), HttpRequest.BodyPublishers.ofString(body));
        return body.length() > 300 ? body.substring(0, 300) + "... (" + body.length() + " chars)" : body;
    }

    private void check(Operation operation, Caller caller, String path, String body, HttpResponse<String> response) {
        int status = response.statusCode();
        seen.computeIfAbsent(operation.label(), k -> new java.util.TreeSet<>()).add(status);
        String where = operation.label() + " as " + caller + ": " + operation.method() + " " + clip(path)
                + (body.isEmpty() ? "" : " body " + body) + " -> " + status + " " + clip(response.body());
        JsonNode responses = operation.node().path("responses");
        JsonNode documented = responses.has(String.valueOf(status)) ? resolve(responses.path(String.valueOf(status)))
                : resolve(responses.path("default"));
        if (Boolean.getBoolean("pylon.fuzz.verbose")) {
            System.out.println("FUZZ " + where);
        }
        if (status == 500 || status == 501 || status == 503) {
            failures.add("a server error: " + where);
            return;
        }
        if (documented.isMissingNode()) {
            failures.add("status " + status + " is not documented: " + where);
            return;
        }
        JsonNode content = documented.path("content");
        if (!content.isObject() || content.isEmpty() || status == 204) {
            return;
        }
        String type = response.headers().firstValue("Content-Type").orElse("");
        String matched = null;
        for (Iterator<String> types = content.fieldNames(); types.hasNext(); ) {
            String candidate = types.next();
            if (type.toLowerCase(Locale.ROOT).startsWith(candidate)) {
                matched = candidate;
            }
        }
        if (matched == null) {
            failures.add("Content-Type '" + type + "' is not documented for " + status + ": " + where);
            return;
        }
        if (!matched.equals("application/json")) {
            return;
        }
        JsonNode json;
        try {
            json = Json.MAPPER.readTree(response.body());
        } catch (Exception e) {
            failures.add("the body is not JSON: " + where);
            return;
        }
        JsonNode schema = content.path(matched).path("schema");
        if (schema.isMissingNode()) {
            return;
        }
        Set<ValidationMessage> problems = schema(schema).validate(json);
        if (!problems.isEmpty()) {
            failures.add("the body does not match its schema " + problems + ": " + where);
        }
    }

    /** Names that answers create go into the pools of valid path values. */
    private void learn(Operation operation, HttpResponse<String> response) {
        if (response.statusCode() != 201) {
            return;
        }
        JsonNode json = Json.MAPPER.valueToTree(Map.of());
        try {
            json = Json.MAPPER.readTree(response.body());
        } catch (Exception e) {
            return;
        }
        if (operation.path().equals("/apiops/users") && json.hasNonNull("username")) {
            usernames.add(json.path("username").asText());
        }
        if (operation.path().equals("/apiops/environments") && json.hasNonNull("name")) {
            environments.add(json.path("name").asText());
        }
    }

    private JsonSchema schema(JsonNode schema) {
        String key = schema.toString();
        return compiled.computeIfAbsent(key, k -> {
            ObjectNode root = schema.deepCopy();
            root.set("components", document.path("components"));
            return schemas.getSchema(URI.create("urn:pylon:fuzz:" + compiled.size()), root);
        });
    }

    // ---------------------------------------------------------------- values

    private String pathValue(Operation operation, String name, JsonNode schema) {
        int pick = random.nextInt(10);
        if (valid && operation.path().contains("/diagnostics/") && !name.equals("diagnostics")) {
            return name.equals("module") ? "worker" : environments.getFirst(); // the pod behind the console
        }
        if (valid || pick < 6) {
            return switch (name) {
                case "username" -> usernames.get(random.nextInt(usernames.size()));
                // the bootstrap environment stays: the console's calls need it
                case "name" -> !operation.method().equals("GET") && !operation.path().contains("/diagnostics/")
                        ? environments.get(1 + random.nextInt(environments.size() - 1))
                        : environments.get(random.nextInt(environments.size()));
                case "module" -> random.nextBoolean() ? "worker" : "cache";
                case "diagnostics" -> List.of("jvm", "health", "threads", "loggers", "compare", "postmortem", "histogram",
                        "hotthreads", "jfr", "env", "all", "connections", "datagrid").get(random.nextInt(13));
                default -> schema.has("enum") ? schema.path("enum").get(random.nextInt(schema.path("enum").size())).asText()
                        : text(1 + random.nextInt(40));
            };
        }
        String junk = junk();
        return junk.isBlank() ? "%" : junk; // an empty segment would be another path, not a value of this one
    }

    private String queryValue(String name, JsonNode schema) {
        if (!valid && random.nextInt(4) == 0) {
            return junk();
        }
        return switch (schema.path("type").asText()) {
            case "integer" -> String.valueOf(valid ? inRange(schema) : number(schema));
            case "boolean" -> random.nextBoolean() ? "true" : "false";
            default -> switch (name) {
                case "pod" -> random.nextBoolean() ? "worker-fuzz" : "worker-gone";
                case "id" -> random.nextBoolean() ? "20261123T081502123Z-deadlock-3fa9" : "0123abcd";
                default -> text(1 + random.nextInt(20));
            };
        };
    }

    private long inRange(JsonNode schema) {
        long min = schema.has("minimum") ? schema.path("minimum").asLong() : 0;
        long max = schema.has("maximum") ? schema.path("maximum").asLong() : 1_000_000;
        return min + (long) (random.nextDouble() * (max - min));
    }

    private long number(JsonNode schema) {
        long min = schema.has("minimum") ? schema.path("minimum").asLong() : 0;
        long max = schema.has("maximum") ? schema.path("maximum").asLong() : 1_000_000;
        return switch (random.nextInt(6)) {
            case 0 -> min - 1;
            case 1 -> max + 1;
            case 2 -> Long.MAX_VALUE;
            case 3 -> Long.MIN_VALUE;
            default -> min + (long) (random.nextDouble() * (max - min));
        };
    }

    /** A value for a schema: mostly valid, sometimes of a wrong type, out of range, missing or with extra fields. */
    private JsonNode value(JsonNode schema, String field, int depth) {
        schema = resolve(schema);
        if (!valid && random.nextInt(12) == 0 || depth > 4) {
            return wrongType();
        }
        if (schema.path("nullable").asBoolean(false) && random.nextInt(6) == 0) {
            return NODES.nullNode();
        }
        if (schema.has("enum")) {
            return !valid && random.nextInt(5) == 0 ? NODES.textNode(text(8))
                    : schema.path("enum").get(random.nextInt(schema.path("enum").size()));
        }
        switch (schema.path("type").asText(schema.has("properties") ? "object" : "string")) {
            case "object" -> {
                ObjectNode object = NODES.objectNode();
                Set<String> required = new LinkedHashSet<>();
                schema.path("required").forEach(r -> required.add(r.asText()));
                schema.path("properties").fields().forEachRemaining(property -> {
                    boolean include = required.contains(property.getKey()) ? valid || random.nextInt(12) > 0
                            : random.nextBoolean();
                    if (include) {
                        object.set(property.getKey(), value(property.getValue(), property.getKey(), depth + 1));
                    }
                });
                if (!valid && random.nextInt(15) == 0) {
                    object.put("unexpected", 1);
                }
                return object;
            }
            case "array" -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(3); i > 0; i--) {
                    array.add(value(schema.path("items"), field, depth + 1));
                }
                return array;
            }
            case "integer", "number" -> {
                return NODES.numberNode(valid ? inRange(schema) : number(schema));
            }
            case "boolean" -> {
                return NODES.booleanNode(random.nextBoolean());
            }
            default -> {
                return NODES.textNode(stringFor(field, schema));
            }
        }
    }

    private String stringFor(String field, JsonNode schema) {
        if (valid) {
            return validString(field, schema);
        }
        if ("date-time".equals(schema.path("format").asText())) {
            return List.of(Instant.now().plus(Duration.ofDays(1 + random.nextInt(3650))).toString(),
                    "2001-01-01T00:00:00Z", "+1000000000-01-01T00:00:00Z", "-999999999-01-01T00:00:00Z",
                    "9999-12-31T23:59:59Z", "+10000-01-01T00:00:00Z", "2030-02-30T00:00:00Z", "tomorrow")
                    .get(random.nextInt(8));
        }
        if ("uri".equals(schema.path("format").asText())) {
            // loopback only: a port in this test's own range where nothing listens, or something that is no URL
            return List.of("http://127.0.46.1:9", "http://127.0.46.2:1/x", TestPods.baseUrl(worker), "ftp://127.0.46.1/",
                    "not a url", "http://[::1", "").get(random.nextInt(7));
        }
        return switch (field) {
            case "username" -> random.nextBoolean() ? "fuzz" + random.nextInt(1000) : junk();
            case "name" -> random.nextBoolean() ? "fuzz-" + random.nextInt(1000) : text(1 + random.nextInt(120));
            case "password", "client_secret" -> text(random.nextBoolean() ? 14 + random.nextInt(20) : random.nextInt(12));
            case "client_id" -> random.nextBoolean() ? "admin" : "fuzz" + random.nextInt(5);
            case "environmentId" -> random.nextBoolean() ? hex(24) : text(24);
            case "description" -> text(random.nextInt(10) == 0 ? 1200 : random.nextInt(60));
            default -> text(random.nextInt(40));
        };
    }

    private String validString(String field, JsonNode schema) {
        if ("date-time".equals(schema.path("format").asText())) {
            return Instant.now().plus(Duration.ofDays(1 + random.nextInt(3650))).toString();
        }
        if ("uri".equals(schema.path("format").asText())) {
            return random.nextBoolean() ? TestPods.baseUrl(worker) : "http://127.0.46.1:9";
        }
        return switch (field) {
            case "username" -> "fuzz" + random.nextInt(1000);
            case "name" -> "fuzz-" + random.nextInt(1000);
            case "password", "client_secret" -> hex(16) + "-Pw";
            case "client_id" -> random.nextInt(3) == 0 ? "admin" : "fuzz" + random.nextInt(5);
            case "grant_type" -> "client_credentials";
            case "environmentId" -> hex(24);
            default -> hex(1 + random.nextInt(20));
        };
    }

    private JsonNode wrongType() {
        return switch (random.nextInt(6)) {
            case 0 -> NODES.numberNode(random.nextLong());
            case 1 -> NODES.booleanNode(true);
            case 2 -> NODES.nullNode();
            case 3 -> NODES.arrayNode().add("x");
            case 4 -> NODES.objectNode().put("x", 1);
            default -> NODES.numberNode(new java.math.BigDecimal("1e400"));
        };
    }

    private String junk() {
        return List.of("", " ", "..", "../../etc/passwd", "%00", "a/b", "ÄÖÜ-ünïcödé", "\u202e\u0000\r\n", "x".repeat(300),
                "<script>", "' OR 1=1 --", "-1", "9223372036854775808", "NaN").get(random.nextInt(14));
    }

    private String text(int length) {
        StringBuilder text = new StringBuilder();
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-._@ %/\\\"'<>ÄéΩ\u0001";
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(random.nextInt(4) == 0 ? alphabet.length() : 36)));
        }
        return text.toString();
    }

    private String hex(int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append("0123456789abcdef".charAt(random.nextInt(16)));
        }
        return text.toString();
    }

    private static JsonNode resolve(JsonNode node) {
        while (node.has("$ref")) {
            JsonNode target = document;
            for (String part : node.path("$ref").asText().substring(2).split("/")) {
                target = target.path(part.replace("~1", "/").replace("~0", "~"));
            }
            node = target;
        }
        return node;
    }

    private static String encodePath(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String clip(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "... (" + text.length() + " chars)" : text;
    }
}
