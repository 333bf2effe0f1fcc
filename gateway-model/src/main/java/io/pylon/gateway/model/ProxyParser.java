package io.pylon.gateway.model;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.pylon.core.http.PodPaths;
import org.jspecify.annotations.Nullable;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads and validates proxy definitions: one proxy (the Manager, before it accepts a revision) or a bundle document
 * (the Worker, before it applies one; a routes file written by hand is such a document). JSON and YAML carry the same
 * schema. Every problem is reported with the proxy (index and name) and the field, and unknown fields are refused: a
 * typo must not silently drop a limit or a timeout.
 *
 * <pre>
 * version: 7                      # optional: the bundle's deployment number
 * proxies:                        # or 'routes', the name a routes file has always used
 *   - name: orders
 *     description: Orders API     # optional, shown by the Manager
 *     pathPrefix: /api/orders
 *     methods: [GET, POST]          # optional, default any
 *     host: api.example.com         # optional, default any
 *     upstreams: [http://10.0.0.5:8080, http://10.0.0.6:8080/base]   # or {url: ..., weight: 1-100}
 *     stripPrefix: false            # optional
 *     rewritePrefix: /v2/orders     # optional: replaces pathPrefix upstream (not with stripPrefix)
 *     connectTimeout: 2s            # optional, default pylon.worker.upstream.connect-timeout
 *     responseTimeout: 30s          # optional, default pylon.worker.upstream.response-timeout
 *     rateLimit:                    # optional
 *       requests: 100
 *       per: second                 # second | minute
 *       key: client-ip              # client-ip (default) | overall
 *       onCacheUnavailable: allow   # allow (default) | deny
 *     requestHeaders:  {add: {X-Env: prod}, remove: [Cookie]}
 *     responseHeaders: {add: {Cache-Control: no-store}, remove: [Server]}
 *     cors: {allowOrigins: [https://app.example.com], allowMethods: [GET], allowHeaders: [Authorization],
 *            exposeHeaders: [X-Request-Id], allowCredentials: true, maxAge: 10m}
 *     ipAllow: [10.0.0.0/8]         # optional: only these clients
 *     ipDeny: [10.1.2.3]            # optional: never these clients
 *     trustedProxies: [10.0.0.1]    # optional: peers whose X-Forwarded-For names the client
 *     keyAuth: {header: X-API-Key}  # optional: an API key is required
 *     websocket: true               # optional, default true: Upgrade: websocket is tunnelled to the upstream
 *     preserveHost: false           # optional; these eight: see ForwardingParser
 *     rewriteLocation: true
 *     maxRequestBody: 10m
 *     responseBuffering: false
 *     retries: {attempts: 2, onStatus: [502, 503], within: 10s}
 *     healthCheck: {path: /health, interval: 5s}
 *     upstreamTls: {caFile: /etc/pylon/ca.pem, serverName: orders.internal}   # https:// upstreams only
 *     upstreamProtocol: HTTP/2      # optional, default HTTP/1.1
 * </pre>
 */
public final class ProxyParser {
    /** More proxies than this in one bundle are refused: a bound on what a document can make a pod hold. */
    public static final int MAX_PROXIES = 10_000;
    /**
     * More distinct {@code upstreamTls} settings than this in one bundle are refused: each is key material a Worker
     * loads and holds, and connection pools of their own.
     */
    public static final int MAX_UPSTREAM_TLS = 64;
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final ObjectMapper YAML = YAMLMapper.builder(YAMLFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build()).build()).build();
    private static final ObjectMapper JSON = JsonMapper.builder(com.fasterxml.jackson.core.JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build()).build()).build();
    private static final Pattern PREFIX = Pattern.compile("/|(/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+/?");
    private static final Pattern METHOD = Pattern.compile("[A-Z][A-Z_-]{0,31}");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?");
    private static final int MAX_UPSTREAMS = 64;
    private static final Set<String> PROXY_FIELDS = union(Set.of("name", "description", "pathPrefix", "methods",
            "host", "upstreams", "stripPrefix", "rewritePrefix", "connectTimeout", "responseTimeout", "rateLimit",
            "requestHeaders", "responseHeaders", "cors", "ipAllow", "ipDeny", "trustedProxies", "keyAuth",
            "websocket"), ForwardingParser.FIELDS);
    private static final Set<String> LIMIT_FIELDS = Set.of("requests", "per", "key", "onCacheUnavailable");

    private final PodPaths paths;
    private final Duration defaultConnectTimeout;
    private final Duration defaultResponseTimeout;

    /**
     * @param segment the platform's path segment: proxies may not take paths under it
     * @param defaultConnectTimeout  a proxy's connect timeout when it sets none
     * @param defaultResponseTimeout a proxy's response timeout when it sets none
     */
    public ProxyParser(String segment, Duration defaultConnectTimeout, Duration defaultResponseTimeout) {
        this.paths = PodPaths.of(segment);
        this.defaultConnectTimeout = defaultConnectTimeout;
        this.defaultResponseTimeout = defaultResponseTimeout;
    }

    /** Reads a JSON or YAML document into a tree, refusing syntax errors with their line and column. */
    public static JsonNode readTree(byte[] content, boolean json) throws InvalidProxyException {
        try {
            return (json ? JSON : YAML).readTree(content);
        } catch (JacksonException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr();
            throw new InvalidProxyException("The document is not valid " + (json ? "JSON" : "YAML") + where + ".");
        } catch (java.io.IOException e) {
            throw new InvalidProxyException("The document cannot be read: " + e.getClass().getSimpleName());
        }
    }

    /** Reads a bundle (or a routes file) from its bytes: YAML, or JSON when {@code json}. */
    public Bundle parse(byte[] content, boolean json) throws InvalidProxyException {
        return parseDocument(readTree(content, json));
    }

    /**
     * Reads a bundle, taking each proxy whose definition equals one of {@code known} as it was parsed then; the
     * caller tells {@code known} whether this bundle was applied. {@code known} must only ever see this parser.
     */
    public Bundle parse(byte[] content, boolean json, KnownProxies known) throws InvalidProxyException {
        try {
            return parseDocument(readTree(content, json), known);
        } catch (InvalidProxyException | RuntimeException e) {
            known.refused();
            throw e;
        }
    }

    /** Reads a bundle document: {@code {version?, proxies: [...]}} or a routes file's {@code {routes: [...]}}. */
    public Bundle parseDocument(JsonNode root) throws InvalidProxyException {
        return parseDocument(root, null);
    }

    private Bundle parseDocument(JsonNode root, @Nullable KnownProxies known) throws InvalidProxyException {
        if (root == null || root.isMissingNode() || root.isNull()) {
            return new Bundle(null, List.of());
        }
        if (!root.isObject()) {
            throw new InvalidProxyException("The document must be an object with a 'proxies' (or 'routes') list.");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!field.equals("routes") && !field.equals("proxies") && !field.equals("version")) {
                throw new InvalidProxyException("Unknown top-level field '" + Texts.printable(field)
                        + "' (expected 'version' and 'proxies', or 'routes').", null, field);
            }
        }
        if (root.has("routes") && root.has("proxies")) {
            throw new InvalidProxyException("A document has 'proxies' or 'routes', not both.", null, "routes");
        }
        Long version = null;
        JsonNode versionNode = root.get("version");
        if (versionNode != null && !versionNode.isNull()) {
            if (!versionNode.isIntegralNumber() || !versionNode.canConvertToLong() || versionNode.asLong() < 0) {
                throw new InvalidProxyException("Field 'version' must be a whole number of at least 0.", null,
                        "version");
            }
            version = versionNode.asLong();
        }
        String listName = root.has("routes") ? "routes" : "proxies";
        String kind = root.has("routes") ? "Route" : "Proxy";
        JsonNode list = root.get(listName);
        if (list == null || list.isNull()) {
            return new Bundle(version, List.of());
        }
        if (!list.isArray()) {
            throw new InvalidProxyException("Field '" + listName + "' must be a list.", null, listName);
        }
        if (list.size() > MAX_PROXIES) {
            throw new InvalidProxyException("Field '" + listName + "' has more than " + MAX_PROXIES + " entries.",
                    null, listName);
        }
        List<Route> routes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<UpstreamTls> tlsSettings = new HashSet<>();
        Map<String, Upstream> upstreams = new HashMap<>(); // one instance per URL: routes share their pool's key
        for (int i = 0; i < list.size(); i++) {
            JsonNode node = list.get(i);
            int index = i;
            KnownProxies.Parse parse = () -> {
                String name = node.isObject() && node.path("name").isTextual() ? node.get("name").asText() : null;
                String where = kind + " " + listName + "[" + index + "]"
                        + (name == null ? "" : " ('" + Texts.printable(name) + "')");
                return parseProxy(node, where, upstreams);
            };
            Route route = known == null ? parse.parse() : known.take(node, parse);
            String where = kind + " " + listName + "[" + i + "] ('" + route.name() + "')";
            if (!names.add(route.name())) {
                throw new InvalidProxyException(where + ": field 'name': another " + kind.toLowerCase(Locale.ROOT)
                        + " is named '" + route.name() + "'.", route.name(), "name");
            }
            UpstreamTls tls = route.forwarding().upstreamTls();
            if (!tls.isDefault() && tlsSettings.add(tls) && tlsSettings.size() > MAX_UPSTREAM_TLS) {
                throw new InvalidProxyException(where + ": field 'upstreamTls': the document has more than "
                        + MAX_UPSTREAM_TLS + " distinct upstreamTls settings.", route.name(), "upstreamTls");
            }
            routes.add(route);
        }
        return new Bundle(version, routes);
    }

    /** Reads one proxy definition; messages start with "Proxy '<name>'". */
    public Route parseProxy(JsonNode node) throws InvalidProxyException {
        String name = node != null && node.isObject() && node.path("name").isTextual() ? node.get("name").asText() : null;
        return parseProxy(node, name == null ? "Proxy" : "Proxy '" + Texts.printable(name) + "'", new HashMap<>());
    }

    private Route parseProxy(JsonNode node, String where, Map<String, Upstream> parsedUpstreams)
            throws InvalidProxyException {
        if (node == null || !node.isObject()) {
            throw new InvalidProxyException(where + ": must be an object.");
        }
        JsonNode nameNode = node.get("name");
        String name = nameNode != null && nameNode.isTextual() ? nameNode.asText() : null;
        Fields fields = new Fields(where, name != null && NAME.matcher(name).matches() ? name : null);
        if (name == null) {
            throw fields.invalid("name", "is required (text)");
        }
        if (!NAME.matcher(name).matches()) {
            throw fields.invalid("name", "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        fields.refuseUnknown(node, PROXY_FIELDS, "");
        fields.text(node, "", "description", false);

        String prefix = pathPrefix(fields, "pathPrefix", fields.requiredText(node, "", "pathPrefix"));
        if (paths.isReserved(prefix)) {
            throw fields.invalid("pathPrefix", paths.root() + "/** is reserved for the platform's own endpoints");
        }
        String rewrite = fields.text(node, "", "rewritePrefix", false);
        if (rewrite != null) {
            rewrite = pathPrefix(fields, "rewritePrefix", rewrite);
        }

        Set<String> methods = new LinkedHashSet<>();
        JsonNode methodsNode = node.get("methods");
        if (methodsNode != null && !methodsNode.isNull()) {
            if (!methodsNode.isArray()) {
                throw fields.invalid("methods", "must be a list such as [GET, POST]");
            }
            if (methodsNode.size() > 32) {
                throw fields.invalid("methods", "has more than 32 entries");
            }
            for (int m = 0; m < methodsNode.size(); m++) {
                JsonNode method = methodsNode.get(m);
                String value = method.isTextual() ? method.asText().toUpperCase(Locale.ROOT) : "";
                if (!METHOD.matcher(value).matches()) {
                    throw fields.invalid("methods[" + m + "]", "'" + Texts.printable(method.asText())
                            + "' is not an HTTP method");
                }
                methods.add(value);
            }
        }

        String host = fields.text(node, "", "host", false);
        if (host != null) {
            host = host.toLowerCase(Locale.ROOT);
            if (!HOST.matcher(host).matches()) {
                throw fields.invalid("host", "'" + Texts.printable(host) + "' is not a host name (no port, no scheme)");
            }
        }

        JsonNode upstreamsNode = node.get("upstreams");
        if (upstreamsNode == null || !upstreamsNode.isArray() || upstreamsNode.isEmpty()) {
            throw fields.invalid("upstreams", "is required: a non-empty list of http:// or https:// URLs");
        }
        if (upstreamsNode.size() > MAX_UPSTREAMS) {
            throw fields.invalid("upstreams", "has more than " + MAX_UPSTREAMS + " entries");
        }
        List<Upstream> upstreams = new ArrayList<>();
        for (int u = 0; u < upstreamsNode.size(); u++) {
            upstreams.add(upstream(upstreamsNode.get(u), fields, "upstreams[" + u + "]", parsedUpstreams));
        }

        boolean strip = fields.bool(node, "", "stripPrefix");
        if (strip && rewrite != null) {
            throw fields.invalid("rewritePrefix", "cannot be combined with stripPrefix (rewritePrefix: / strips)");
        }
        Duration connect = fields.duration(node, "", "connectTimeout", defaultConnectTimeout);
        Duration response = fields.duration(node, "", "responseTimeout", defaultResponseTimeout);
        RateLimit limit = rateLimit(node.get("rateLimit"), fields);
        Policies policies = new Policies(PolicyParser.headers(node, fields, "requestHeaders"),
                PolicyParser.headers(node, fields, "responseHeaders"), rewrite, PolicyParser.cors(node, fields),
                PolicyParser.ipRules(node, fields), PolicyParser.keyAuth(node, fields));
        boolean websocket = !node.has("websocket") || fields.bool(node, "", "websocket");
        Forwarding forwarding = ForwardingParser.forwarding(node, fields);
        if (!forwarding.upstreamTls().isDefault() && upstreams.stream().noneMatch(u -> u.scheme().equals("https"))) {
            throw fields.invalid("upstreamTls", "applies to https:// upstreams, and this proxy has none");
        }
        return new Route(name, prefix, methods, host, upstreams, strip, connect, response, limit, policies,
                websocket, forwarding);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    /** An upstream URL, or {@code {url: ..., weight: 1-100}}. */
    private static Upstream upstream(JsonNode node, Fields fields, String field, Map<String, Upstream> parsed)
            throws InvalidProxyException {
        int weight = 1;
        JsonNode url = node;
        if (node != null && node.isObject()) {
            fields.refuseUnknown(node, Set.of("url", "weight"), field + ".");
            url = node.get("url");
            JsonNode weightNode = node.get("weight");
            if (weightNode != null && !weightNode.isNull()) {
                if (!weightNode.isIntegralNumber() || weightNode.asInt() < 1 || weightNode.asInt() > Upstream.MAX_WEIGHT) {
                    throw fields.invalid(field + ".weight", "must be a whole number from 1 to " + Upstream.MAX_WEIGHT);
                }
                weight = weightNode.asInt();
            }
            if (url == null || url.isNull()) {
                throw fields.invalid(field + ".url", "is required: an http:// or https:// URL");
            }
        }
        String text = fields.text(url, node != null && node.isObject() ? field + ".url" : field);
        try {
            Upstream upstream = parsed.get(text);
            if (upstream == null) {
                upstream = Upstream.parse(text);
                parsed.put(text, upstream);
            }
            return weight == upstream.weight() ? upstream : upstream.withWeight(weight);
        } catch (IllegalArgumentException e) {
            throw fields.invalid(field, e);
        }
    }

    private static String pathPrefix(Fields fields, String field, String prefix) throws InvalidProxyException {
        if (!PREFIX.matcher(prefix).matches() || prefix.contains("//") || hasDotSegment(prefix)) {
            throw fields.invalid(field, "'" + Texts.printable(prefix) + "' is not a path prefix such as /api/orders "
                    + "(no '.' or '..' segments, plain or %-encoded)");
        }
        if (prefix.length() > 1 && prefix.endsWith("/")) {
            return prefix.substring(0, prefix.length() - 1);
        }
        return prefix;
    }

    private static @Nullable RateLimit rateLimit(@Nullable JsonNode node, Fields fields) throws InvalidProxyException {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw fields.invalid("rateLimit", "must be an object with requests and per");
        }
        fields.refuseUnknown(node, LIMIT_FIELDS, "rateLimit.");
        JsonNode requests = node.get("requests");
        if (requests == null || !requests.canConvertToInt() || !requests.isIntegralNumber() || requests.asInt() < 1) {
            throw fields.invalid("rateLimit.requests", "is required: a whole number of at least 1");
        }
        RateLimit.Window window = fields.choice(node, "rateLimit.", "per", RateLimit.Window.class, null);
        RateLimit.Key key = fields.choice(node, "rateLimit.", "key", RateLimit.Key.class, RateLimit.Key.CLIENT_IP);
        RateLimit.CacheFallback fallback = fields.choice(node, "rateLimit.", "onCacheUnavailable",
                RateLimit.CacheFallback.class, RateLimit.CacheFallback.ALLOW);
        return new RateLimit(requests.asInt(), window, key, fallback);
    }

    // '.' and '..' segments, also %-encoded (%2e): a prefix must name one place however a client spells it
    private static boolean hasDotSegment(String prefix) {
        for (String part : prefix.split("/")) {
            if (part.indexOf('%') < 0 && !part.equals(".") && !part.equals("..")) {
                continue;
            }
            String decoded;
            try {
                decoded = URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return true; // a broken %-escape is not a path either
            }
            if (decoded.equals(".") || decoded.equals("..") || decoded.contains("/")) {
                return true;
            }
        }
        return false;
    }

}
