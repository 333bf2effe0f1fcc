package io.pylon.worker.routes;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.pylon.core.config.SettingType;
import io.pylon.core.http.PodPaths;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads and validates a routes file (YAML, or JSON when the name ends in {@code .json}). Every problem is reported
 * with the route (index and name) and the field, and unknown fields are refused: a typo must not silently drop a
 * limit or a timeout.
 *
 * <pre>
 * routes:
 *   - name: orders
 *     pathPrefix: /api/orders
 *     methods: [GET, POST]          # optional, default any
 *     host: api.example.com         # optional, default any
 *     upstreams: [http://10.0.0.5:8080, http://10.0.0.6:8080/base]
 *     stripPrefix: false            # optional
 *     connectTimeout: 2s            # optional, default pylon.worker.upstream.connect-timeout
 *     responseTimeout: 30s          # optional, default pylon.worker.upstream.response-timeout
 *     rateLimit:                    # optional
 *       requests: 100
 *       per: second                 # second | minute
 *       key: client-ip              # client-ip (default) | overall
 *       onCacheUnavailable: allow   # allow (default) | deny
 * </pre>
 */
public final class RouteFileParser {
    private static final ObjectMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern PREFIX = Pattern.compile("/|(/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+/?");
    private static final Pattern METHOD = Pattern.compile("[A-Z][A-Z_-]{0,31}");
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?");
    private static final Set<String> ROUTE_FIELDS = Set.of("name", "pathPrefix", "methods", "host", "upstreams",
            "stripPrefix", "connectTimeout", "responseTimeout", "rateLimit");
    private static final Set<String> LIMIT_FIELDS = Set.of("requests", "per", "key", "onCacheUnavailable");

    private final PodPaths paths;
    private final Duration defaultConnectTimeout;
    private final Duration defaultResponseTimeout;

    public RouteFileParser(String segment, Duration defaultConnectTimeout, Duration defaultResponseTimeout) {
        this.paths = PodPaths.of(segment);
        this.defaultConnectTimeout = defaultConnectTimeout;
        this.defaultResponseTimeout = defaultResponseTimeout;
    }

    public List<Route> parse(byte[] content, boolean json) throws InvalidRoutesException {
        JsonNode root;
        try {
            root = (json ? JSON : YAML).readTree(content);
        } catch (JacksonException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr();
            throw new InvalidRoutesException("The routes file is not valid " + (json ? "JSON" : "YAML") + where + ".");
        } catch (java.io.IOException e) {
            throw new InvalidRoutesException("The routes file cannot be read: " + e.getClass().getSimpleName());
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            return List.of();
        }
        if (!root.isObject()) {
            throw new InvalidRoutesException("The routes file must be an object with a 'routes' list.");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!field.equals("routes")) {
                throw new InvalidRoutesException("Unknown top-level field '" + field + "' (expected 'routes').");
            }
        }
        JsonNode list = root.get("routes");
        if (list == null || list.isNull()) {
            return List.of();
        }
        if (!list.isArray()) {
            throw new InvalidRoutesException("Field 'routes' must be a list.");
        }
        List<Route> routes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            Route route = route(list.get(i), i);
            if (!names.add(route.name())) {
                throw new InvalidRoutesException(where(i, route.name()) + ": field 'name': another route is named '"
                        + route.name() + "'.");
            }
            routes.add(route);
        }
        return routes;
    }

    private Route route(JsonNode node, int index) throws InvalidRoutesException {
        if (!node.isObject()) {
            throw new InvalidRoutesException(where(index, null) + ": must be an object.");
        }
        JsonNode nameNode = node.get("name");
        String name = nameNode != null && nameNode.isTextual() ? nameNode.asText() : null;
        RouteContext ctx = new RouteContext(where(index, name));
        if (name == null) {
            throw ctx.invalid("name", "is required (text)");
        }
        if (!NAME.matcher(name).matches()) {
            throw ctx.invalid("name", "must be 1 to 64 letters, digits, '.', '_' or '-'");
        }
        ctx.refuseUnknown(node, ROUTE_FIELDS, "");

        String prefix = ctx.requiredText(node, "pathPrefix");
        if (!PREFIX.matcher(prefix).matches() || prefix.contains("//") || hasDotSegment(prefix)) {
            throw ctx.invalid("pathPrefix", "'" + prefix + "' is not a path prefix such as /api/orders");
        }
        if (prefix.length() > 1 && prefix.endsWith("/")) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
        if (paths.isReserved(prefix)) {
            throw ctx.invalid("pathPrefix", paths.root() + "/** is reserved for the platform's own endpoints");
        }

        Set<String> methods = new LinkedHashSet<>();
        JsonNode methodsNode = node.get("methods");
        if (methodsNode != null && !methodsNode.isNull()) {
            if (!methodsNode.isArray()) {
                throw ctx.invalid("methods", "must be a list such as [GET, POST]");
            }
            for (int m = 0; m < methodsNode.size(); m++) {
                JsonNode method = methodsNode.get(m);
                String value = method.isTextual() ? method.asText().toUpperCase(Locale.ROOT) : "";
                if (!METHOD.matcher(value).matches()) {
                    throw ctx.invalid("methods[" + m + "]", "'" + method.asText() + "' is not an HTTP method");
                }
                methods.add(value);
            }
        }

        String host = ctx.text(node, "host", false);
        if (host != null) {
            host = host.toLowerCase(Locale.ROOT);
            if (!HOST.matcher(host).matches()) {
                throw ctx.invalid("host", "'" + host + "' is not a host name (no port, no scheme)");
            }
        }

        JsonNode upstreamsNode = node.get("upstreams");
        if (upstreamsNode == null || !upstreamsNode.isArray() || upstreamsNode.isEmpty()) {
            throw ctx.invalid("upstreams", "is required: a non-empty list of http:// or https:// URLs");
        }
        List<Upstream> upstreams = new ArrayList<>();
        for (int u = 0; u < upstreamsNode.size(); u++) {
            JsonNode upstream = upstreamsNode.get(u);
            if (!upstream.isTextual()) {
                throw ctx.invalid("upstreams[" + u + "]", "must be a URL");
            }
            try {
                upstreams.add(Upstream.parse(upstream.asText()));
            } catch (IllegalArgumentException e) {
                throw ctx.invalid("upstreams[" + u + "]", e.getMessage());
            }
        }

        boolean strip = ctx.bool(node, "stripPrefix");
        Duration connect = ctx.duration(node, "connectTimeout", defaultConnectTimeout);
        Duration response = ctx.duration(node, "responseTimeout", defaultResponseTimeout);
        RateLimit limit = rateLimit(node.get("rateLimit"), ctx);
        return new Route(name, prefix, methods, host, upstreams, strip, connect, response, limit);
    }

    private static @Nullable RateLimit rateLimit(JsonNode node, RouteContext ctx) throws InvalidRoutesException {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw ctx.invalid("rateLimit", "must be an object with requests and per");
        }
        ctx.refuseUnknown(node, LIMIT_FIELDS, "rateLimit.");
        JsonNode requests = node.get("requests");
        if (requests == null || !requests.canConvertToInt() || !requests.isIntegralNumber() || requests.asInt() < 1) {
            throw ctx.invalid("rateLimit.requests", "is required: a whole number of at least 1");
        }
        RateLimit.Window window = ctx.choice(node, "rateLimit.", "per", RateLimit.Window.class, null);
        RateLimit.Key key = ctx.choice(node, "rateLimit.", "key", RateLimit.Key.class, RateLimit.Key.CLIENT_IP);
        RateLimit.CacheFallback fallback = ctx.choice(node, "rateLimit.", "onCacheUnavailable",
                RateLimit.CacheFallback.class, RateLimit.CacheFallback.ALLOW);
        return new RateLimit(requests.asInt(), window, key, fallback);
    }

    private static boolean hasDotSegment(String prefix) {
        for (String part : prefix.split("/")) {
            if (part.equals(".") || part.equals("..")) {
                return true;
            }
        }
        return false;
    }

    private static String where(int index, @Nullable String name) {
        return "Route routes[" + index + "]" + (name == null ? "" : " ('" + name + "')");
    }

    /** Builds messages that name the route and the field. */
    private record RouteContext(String where) {

        InvalidRoutesException invalid(String field, @Nullable String problem) {
            return new InvalidRoutesException(where + ": field '" + field + "' " + problem + ".");
        }

        void refuseUnknown(JsonNode node, Set<String> known, String parent) throws InvalidRoutesException {
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String field = it.next();
                if (!known.contains(field)) {
                    throw new InvalidRoutesException(where + ": unknown field '" + parent + field + "' (known: "
                            + String.join(", ", known.stream().sorted().toList()) + ").");
                }
            }
        }

        String requiredText(JsonNode node, String field) throws InvalidRoutesException {
            String text = text(node, field, true);
            if (text == null) {
                throw invalid(field, "is required");
            }
            return text;
        }

        @Nullable String text(JsonNode node, String field, boolean required) throws InvalidRoutesException {
            JsonNode value = node.get(field);
            if (value == null || value.isNull()) {
                if (required) {
                    throw invalid(field, "is required");
                }
                return null;
            }
            if (!value.isTextual() || value.asText().isBlank()) {
                throw invalid(field, "must be non-empty text");
            }
            return value.asText().strip();
        }

        boolean bool(JsonNode node, String field) throws InvalidRoutesException {
            JsonNode value = node.get(field);
            if (value == null || value.isNull()) {
                return false;
            }
            if (!value.isBoolean()) {
                throw invalid(field, "must be true or false");
            }
            return value.asBoolean();
        }

        Duration duration(JsonNode node, String field, Duration fallback) throws InvalidRoutesException {
            String text = text(node, field, false);
            if (text == null) {
                return fallback;
            }
            Duration parsed;
            try {
                parsed = SettingType.DURATION_TYPE.parse(text);
            } catch (IllegalArgumentException e) {
                throw invalid(field, "'" + text + "' is not " + SettingType.DURATION_TYPE.expected());
            }
            if (parsed.isZero()) {
                throw invalid(field, "must be longer than zero");
            }
            return parsed;
        }

        <E extends Enum<E>> E choice(JsonNode node, String parent, String field, Class<E> type, @Nullable E fallback)
                throws InvalidRoutesException {
            JsonNode value = node.get(field);
            String choices = String.join(" or ", java.util.Arrays.stream(type.getEnumConstants())
                    .map(c -> c.name().toLowerCase(Locale.ROOT).replace('_', '-')).toList());
            if (value == null || value.isNull()) {
                if (fallback == null) {
                    throw invalid(parent + field, "is required: " + choices);
                }
                return fallback;
            }
            String text = value.isTextual() ? value.asText().strip().toUpperCase(Locale.ROOT).replace('-', '_') : "";
            for (E constant : type.getEnumConstants()) {
                if (constant.name().equals(text)) {
                    return constant;
                }
            }
            throw invalid(parent + field, "'" + value.asText() + "' is not " + choices);
        }
    }
}
