package io.pylon.gateway.model;

import org.jspecify.annotations.Nullable;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a proxy's forwarding fields ({@link Forwarding}); each problem names the proxy and the field:
 * <pre>
 * preserveHost: true              # optional, default false: the upstream gets the client's Host
 * rewriteLocation: false          # optional, default true: Location/Content-Location pointing upstream are rewritten
 * maxRequestBody: 10m             # optional: bytes, or k, m, g; 0 = no limit; default pylon.worker.max-request-body
 * responseBuffering: true         # optional, default false: unsized responses read whole (up to 1 MiB) first
 * retries: {attempts: 2, onStatus: [502, 503], within: 5s}   # optional: idempotent requests without a body
 * healthCheck: {path: /health, interval: 5s, timeout: 2s, healthyThreshold: 2, unhealthyThreshold: 3}  # optional
 * upstreamTls:                    # optional, https:// upstreams only
 *   caFile: /etc/pylon/upstream-ca.pem        # default: the JDK's trust store
 *   certificateFile: /etc/pylon/client.crt    # with keyFile: mutual TLS
 *   keyFile: /etc/pylon/client.key
 *   serverName: orders.internal               # default: the URL's host (SNI and the name checked)
 *   verify: true                              # default true; false trusts any certificate (logged at load)
 * upstreamProtocol: HTTP/2        # optional, default HTTP/1.1: h2c for http://, ALPN h2 for https:// (gRPC);
 *                                 # not with healthCheck, whose probe speaks HTTP/1.1
 * </pre>
 * Stateless.
 */
final class ForwardingParser {
    static final Set<String> FIELDS = Set.of("preserveHost", "rewriteLocation", "maxRequestBody", "responseBuffering",
            "retries", "healthCheck", "upstreamTls", "upstreamProtocol");
    private static final Set<String> TLS_FIELDS = Set.of("caFile", "certificateFile", "keyFile", "serverName",
            "verify");
    private static final Pattern SERVER_NAME = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?");
    private static final Set<String> CHECK_FIELDS = Set.of("path", "interval", "timeout", "healthyThreshold",
            "unhealthyThreshold");
    private static final Pattern CHECK_PATH = Pattern.compile("/[A-Za-z0-9._~!$&'()*+,;=:@%/?-]{0,255}");
    private static final Set<String> RETRY_FIELDS = Set.of("attempts", "onStatus", "within");
    private static final Set<Integer> RETRY_STATUSES = Set.of(502, 503, 504);
    private static final Pattern SIZE = Pattern.compile("([0-9]{1,12})([kKmMgG]?)");
    private static final Duration DEFAULT_WITHIN = Duration.ofSeconds(10);

    private ForwardingParser() {
    }

    static Forwarding forwarding(JsonNode node, Fields fields) throws InvalidProxyException {
        boolean preserveHost = fields.bool(node, "", "preserveHost");
        JsonNode rewrite = node.get("rewriteLocation");
        boolean rewriteLocation = rewrite == null || rewrite.isNull() || fields.bool(node, "", "rewriteLocation");
        long maxBody = size(node, fields, "maxRequestBody");
        boolean buffering = fields.bool(node, "", "responseBuffering");
        Forwarding.HealthCheck check = healthCheck(node.get("healthCheck"), fields);
        boolean http2 = http2(node, fields);
        if (http2 && check != null) {
            throw fields.invalid("healthCheck", "speaks HTTP/1.1, which an upstreamProtocol: HTTP/2 upstream may not "
                    + "answer; remove it (failed upstreams are still probed over TCP)");
        }
        return new Forwarding(preserveHost, rewriteLocation, maxBody, buffering, retries(node.get("retries"), fields),
                check, upstreamTls(node.get("upstreamTls"), fields), http2);
    }

    private static boolean http2(JsonNode node, Fields fields) throws InvalidProxyException {
        JsonNode value = node.get("upstreamProtocol");
        if (value == null || value.isNull() || value.asText().equals("HTTP/1.1")) {
            return false;
        }
        if (value.asText().equals("HTTP/2")) {
            return true;
        }
        throw fields.invalid("upstreamProtocol", "'" + Texts.printable(value.asText()) + "' is not HTTP/1.1 or HTTP/2");
    }

    private static UpstreamTls upstreamTls(JsonNode node, Fields fields) throws InvalidProxyException {
        if (node == null || node.isNull()) {
            return UpstreamTls.DEFAULTS;
        }
        if (!node.isObject()) {
            throw fields.invalid("upstreamTls", "must be an object such as {caFile: /etc/pylon/upstream-ca.pem}");
        }
        fields.refuseUnknown(node, TLS_FIELDS, "upstreamTls.");
        String ca = file(node, fields, "caFile");
        String certificate = file(node, fields, "certificateFile");
        String key = file(node, fields, "keyFile");
        if (certificate != null && key == null) {
            throw fields.invalid("upstreamTls.keyFile", "is required with certificateFile (the client certificate's key)");
        }
        if (key != null && certificate == null) {
            throw fields.invalid("upstreamTls.certificateFile", "is required with keyFile");
        }
        String serverName = fields.text(node, "upstreamTls.", "serverName", false);
        if (serverName != null) {
            serverName = serverName.toLowerCase(Locale.ROOT);
            if (!SERVER_NAME.matcher(serverName).matches()) {
                throw fields.invalid("upstreamTls.serverName", "'" + Texts.printable(serverName)
                        + "' is not a host name (no port, no scheme)");
            }
        }
        JsonNode verifyNode = node.get("verify");
        boolean verify = verifyNode == null || verifyNode.isNull() || fields.bool(node, "upstreamTls.", "verify");
        if (!verify && ca != null) {
            throw fields.invalid("upstreamTls.caFile", "has no effect with verify: false (nothing is checked); "
                    + "remove one of them");
        }
        return new UpstreamTls(ca, certificate, key, serverName, verify);
    }

    private static @Nullable String file(JsonNode node, Fields fields, String field) throws InvalidProxyException {
        String path = fields.text(node, "upstreamTls.", field, false);
        if (path != null && !path.startsWith("/")) {
            throw fields.invalid("upstreamTls." + field, "'" + Texts.printable(path)
                    + "' is not an absolute path of a PEM file on the Worker");
        }
        return path;
    }

    private static Forwarding.@Nullable HealthCheck healthCheck(JsonNode node, Fields fields) throws InvalidProxyException {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw fields.invalid("healthCheck", "must be an object such as {path: /health, interval: 5s}");
        }
        fields.refuseUnknown(node, CHECK_FIELDS, "healthCheck.");
        String path = fields.requiredText(node, "healthCheck.", "path");
        if (!CHECK_PATH.matcher(path).matches()) {
            throw fields.invalid("healthCheck.path", "'" + Texts.printable(path) + "' is not a path such as /health");
        }
        Duration interval = fields.duration(node, "healthCheck.", "interval", Duration.ofSeconds(5));
        if (interval.compareTo(Duration.ofSeconds(1)) < 0) {
            throw fields.invalid("healthCheck.interval", "must be at least 1s");
        }
        Duration timeout = fields.duration(node, "healthCheck.", "timeout", Duration.ofSeconds(2));
        if (timeout.compareTo(interval) > 0) {
            throw fields.invalid("healthCheck.timeout", "must not be longer than the interval");
        }
        return new Forwarding.HealthCheck(path, interval, timeout, threshold(node, fields, "healthyThreshold", 2),
                threshold(node, fields, "unhealthyThreshold", 3));
    }

    private static int threshold(JsonNode node, Fields fields, String field, int fallback)
            throws InvalidProxyException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isIntegralNumber() || value.asInt() < 1 || value.asInt() > 10) {
            throw fields.invalid("healthCheck." + field, "must be a whole number from 1 to 10");
        }
        return value.asInt();
    }

    private static long size(JsonNode node, Fields fields, String field) throws InvalidProxyException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Forwarding.POD_DEFAULT;
        }
        String text = value.isIntegralNumber() ? value.asText() : value.isTextual() ? value.asText().strip() : "";
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            throw fields.invalid(field, "'" + Texts.printable(value.asText())
                    + "' is not a size in bytes, or with k, m or g (e.g. 10m; 0 for no limit)");
        }
        long number = Long.parseLong(m.group(1));
        return switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> number << 10;
            case "m" -> number << 20;
            case "g" -> number << 30;
            default -> number;
        };
    }

    private static Forwarding.Retries retries(JsonNode node, Fields fields) throws InvalidProxyException {
        if (node == null || node.isNull()) {
            return Forwarding.Retries.NONE;
        }
        if (!node.isObject()) {
            throw fields.invalid("retries", "must be an object such as {attempts: 2, onStatus: [502, 503], within: 5s}");
        }
        fields.refuseUnknown(node, RETRY_FIELDS, "retries.");
        JsonNode attemptsNode = node.get("attempts");
        if (attemptsNode == null || !attemptsNode.isIntegralNumber() || attemptsNode.asInt() < 1
                || attemptsNode.asInt() > 5) {
            throw fields.invalid("retries.attempts", "is required: a whole number from 1 to 5");
        }
        Set<Integer> statuses = new LinkedHashSet<>();
        JsonNode statusNode = node.get("onStatus");
        if (statusNode != null && !statusNode.isNull()) {
            if (!statusNode.isArray()) {
                throw fields.invalid("retries.onStatus", "must be a list of 502, 503 or 504");
            }
            for (int i = 0; i < statusNode.size(); i++) {
                JsonNode status = statusNode.get(i);
                if (!status.isIntegralNumber() || !RETRY_STATUSES.contains(status.asInt())) {
                    throw fields.invalid("retries.onStatus[" + i + "]", "'" + Texts.printable(status.asText())
                            + "' is not 502, 503 or 504");
                }
                statuses.add(status.asInt());
            }
        }
        Duration within = fields.duration(node, "retries.", "within", DEFAULT_WITHIN);
        return new Forwarding.Retries(attemptsNode.asInt(), statuses, within);
    }
}
