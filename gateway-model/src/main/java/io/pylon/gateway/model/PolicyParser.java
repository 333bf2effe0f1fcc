package io.pylon.gateway.model;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** Reads a proxy's policies (header transforms, CORS, IP rules, key auth); every refusal names the field. */
final class PolicyParser {
    static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
    private static final Pattern METHOD = Pattern.compile("[A-Z][A-Z_-]{0,31}");
    private static final Pattern ORIGIN = Pattern.compile("https?://[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?");
    /** Headers the Worker owns on the wire: framing, connection management and the upstream's Host. */
    private static final Set<String> RESERVED_HEADERS = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    private static final int MAX_ENTRIES = 64;
    private static final int MAX_CIDRS = 256;
    private static final Set<String> HEADER_FIELDS = Set.of("add", "remove");
    private static final Set<String> CORS_FIELDS = Set.of("allowOrigins", "allowMethods", "allowHeaders",
            "exposeHeaders", "allowCredentials", "maxAge");
    private static final Set<String> KEY_AUTH_FIELDS = Set.of("header");

    static {
        RESERVED_HEADERS.addAll(List.of("Host", "Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive",
                "Upgrade", "TE", "Trailer", "Proxy-Connection", "Proxy-Authenticate", "Proxy-Authorization"));
    }

    private PolicyParser() {
    }

    static HeaderRules headers(JsonNode node, Fields fields, String field) throws InvalidProxyException {
        JsonNode rules = node.get(field);
        if (rules == null || rules.isNull()) {
            return HeaderRules.NONE;
        }
        if (!rules.isObject()) {
            throw fields.invalid(field, "must be an object with 'add' (name: value) and 'remove' (names)");
        }
        fields.refuseUnknown(rules, HEADER_FIELDS, field + ".");
        Map<String, String> add = new LinkedHashMap<>();
        JsonNode addNode = rules.get("add");
        if (addNode != null && !addNode.isNull()) {
            if (!addNode.isObject()) {
                throw fields.invalid(field + ".add", "must be an object of header name: value");
            }
            if (addNode.size() > MAX_ENTRIES) {
                throw fields.invalid(field + ".add", "has more than " + MAX_ENTRIES + " entries");
            }
            for (var it = addNode.fields(); it.hasNext(); ) {
                var entry = it.next();
                String name = headerName(entry.getKey(), fields, field + ".add");
                String value = entry.getValue().isNumber() ? entry.getValue().asText()
                        : fields.text(entry.getValue(), field + ".add." + name);
                add.put(name, value);
            }
        }
        List<String> remove = new ArrayList<>();
        for (String name : fields.texts(rules, field + ".", "remove", MAX_ENTRIES)) {
            remove.add(headerName(name, fields, field + ".remove"));
        }
        return new HeaderRules(add, remove);
    }

    private static String headerName(String name, Fields fields, String field) throws InvalidProxyException {
        if (!TOKEN.matcher(name).matches()) {
            throw fields.invalid(field, "'" + Texts.printable(name) + "' is not a header name");
        }
        if (RESERVED_HEADERS.contains(name)) {
            throw fields.invalid(field, "'" + name + "' is managed by the gateway and cannot be changed");
        }
        return name;
    }

    static @Nullable Cors cors(JsonNode node, Fields fields) throws InvalidProxyException {
        JsonNode cors = node.get("cors");
        if (cors == null || cors.isNull()) {
            return null;
        }
        if (!cors.isObject()) {
            throw fields.invalid("cors", "must be an object with allowOrigins");
        }
        fields.refuseUnknown(cors, CORS_FIELDS, "cors.");
        List<String> origins = fields.texts(cors, "cors.", "allowOrigins", MAX_ENTRIES);
        if (origins.isEmpty()) {
            throw fields.invalid("cors.allowOrigins", "is required: a list of origins such as https://app.example.com, or *");
        }
        for (int i = 0; i < origins.size(); i++) {
            String origin = origins.get(i);
            if (!origin.equals("*") && !ORIGIN.matcher(origin).matches()) {
                throw fields.invalid("cors.allowOrigins[" + i + "]", "'" + Texts.printable(origin)
                        + "' is not an origin such as https://app.example.com (scheme, host, optional port) or *");
            }
        }
        List<String> methods = new ArrayList<>();
        List<String> rawMethods = fields.texts(cors, "cors.", "allowMethods", 32);
        for (int i = 0; i < rawMethods.size(); i++) {
            String method = rawMethods.get(i).toUpperCase(Locale.ROOT);
            if (!METHOD.matcher(method).matches()) {
                throw fields.invalid("cors.allowMethods[" + i + "]", "'" + Texts.printable(method)
                        + "' is not an HTTP method");
            }
            methods.add(method);
        }
        List<String> allowHeaders = tokens(cors, fields, "allowHeaders");
        List<String> exposeHeaders = tokens(cors, fields, "exposeHeaders");
        boolean credentials = fields.bool(cors, "cors.", "allowCredentials");
        if (credentials && origins.contains("*")) {
            throw fields.invalid("cors.allowCredentials", "cannot be true when allowOrigins contains * "
                    + "(browsers refuse it; list the origins)");
        }
        Duration maxAge = fields.optionalDuration(cors, "cors.", "maxAge");
        return new Cors(origins, methods, allowHeaders, exposeHeaders, credentials, maxAge);
    }

    private static List<String> tokens(JsonNode cors, Fields fields, String field) throws InvalidProxyException {
        List<String> values = fields.texts(cors, "cors.", field, MAX_ENTRIES);
        for (int i = 0; i < values.size(); i++) {
            if (!values.get(i).equals("*") && !TOKEN.matcher(values.get(i)).matches()) {
                throw fields.invalid("cors." + field + "[" + i + "]", "'" + Texts.printable(values.get(i))
                        + "' is not a header name");
            }
        }
        return values;
    }

    static IpRules ipRules(JsonNode node, Fields fields) throws InvalidProxyException {
        return new IpRules(cidrs(node, fields, "ipAllow"), cidrs(node, fields, "ipDeny"),
                cidrs(node, fields, "trustedProxies"));
    }

    private static List<Cidr> cidrs(JsonNode node, Fields fields, String field) throws InvalidProxyException {
        List<String> values = fields.texts(node, "", field, MAX_CIDRS);
        List<Cidr> out = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            try {
                out.add(Cidr.parse(values.get(i)));
            } catch (IllegalArgumentException e) {
                throw fields.invalid(field + "[" + i + "]", e);
            }
        }
        return out;
    }

    static @Nullable KeyAuth keyAuth(JsonNode node, Fields fields) throws InvalidProxyException {
        JsonNode keyAuth = node.get("keyAuth");
        if (keyAuth == null || keyAuth.isNull()) {
            return null;
        }
        if (!keyAuth.isObject()) {
            throw fields.invalid("keyAuth", "must be an object, such as {} or {header: X-API-Key}");
        }
        fields.refuseUnknown(keyAuth, KEY_AUTH_FIELDS, "keyAuth.");
        String header = fields.text(keyAuth, "keyAuth.", "header", false);
        if (header == null) {
            return new KeyAuth(KeyAuth.DEFAULT_HEADER);
        }
        if (!TOKEN.matcher(header).matches()) {
            throw fields.invalid("keyAuth.header", "'" + Texts.printable(header) + "' is not a header name");
        }
        return new KeyAuth(header);
    }
}
