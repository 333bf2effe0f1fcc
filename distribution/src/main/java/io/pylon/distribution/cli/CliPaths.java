package io.pylon.distribution.cli;

import org.jspecify.annotations.Nullable;

import io.pylon.core.http.PodPaths;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;

/**
 * Every path the CLI calls, in one place: the Manager's {@code /apiops/...} routes, and the modules' own
 * {@code /<segment>/management/...} endpoints from core's {@link PodPaths} (the pods' path grammar has one owner).
 * Names from the command line are percent-encoded as path segments.
 */
public final class CliPaths {
    private CliPaths() {
    }

    public static String token() {
        return "/apiops/auth/token";
    }

    public static String revoke() {
        return "/apiops/auth/revoke";
    }

    public static String me() {
        return "/apiops/auth/me";
    }

    public static String users() {
        return "/apiops/users";
    }

    public static String user(String username, String... rest) {
        return users() + "/" + segment(username) + tail(rest);
    }

    public static String tokens() {
        return "/apiops/tokens";
    }

    public static String personalToken(String id) {
        return tokens() + "/" + segment(id);
    }

    public static String environments() {
        return "/apiops/environments";
    }

    public static String environment(String name, String... rest) {
        return environments() + "/" + segment(name) + tail(rest);
    }

    public static String proxies() {
        return "/apiops/proxies";
    }

    public static String proxy(String name, String... rest) {
        return proxies() + "/" + segment(name) + tail(rest);
    }

    public static String deployments(String environment) {
        return environment(environment, "deployments");
    }

    public static String deployment(String environment, long version) {
        return environment(environment, "deployments", Long.toString(version));
    }

    public static String rollback(String environment, long version) {
        return environment(environment, "deployments", Long.toString(version), "rollback");
    }

    public static String gatewayStatus(String environment) {
        return environment(environment, "gateway-status");
    }

    public static String flows() {
        return "/apiops/flows";
    }

    public static String flow(String name, String... rest) {
        return flows() + "/" + segment(name) + tail(rest);
    }

    /** A flow's runs page (keyset: {@code before} is the previous page's {@code next}). */
    public static String runs(String flow, int limit, Long before) {
        return flow(flow, "runs") + "?limit=" + limit + (before == null ? "" : "&before=" + before);
    }

    public static String run(String flow, String id) {
        return flow(flow, "runs") + "/" + segment(id);
    }

    public static String audit(int limit, @Nullable Long before) {
        return "/apiops/audit?limit=" + limit + (before == null ? "" : "&before=" + before);
    }

    /** The console route that forwards one diagnostics call to a Worker or Cache of {@code environment}. */
    public static String diagnostics(String environment, String module, String name, @Nullable String pod,
                                     @Nullable Boolean internal) {
        return diagnostics(environment, module, name, pod, internal, null);
    }

    /** ...with the {@code sections} of {@code all} or {@code compare} (comma-separated names), when not null. */
    public static String diagnostics(String environment, String module, String name, @Nullable String pod,
                                     @Nullable Boolean internal, @Nullable String sections) {
        StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
        if (sections != null) {
            query.add("sections=" + URLEncoder.encode(sections, StandardCharsets.UTF_8));
        }
        if (pod != null) {
            query.add("pod=" + URLEncoder.encode(pod, StandardCharsets.UTF_8));
        }
        if (internal != null) {
            query.add("internal=" + internal);
        }
        return environment(environment, "diagnostics", module, name) + query;
    }

    /** A module's own health endpoint, below its base URL. */
    public static String moduleHealth(String segment) {
        return PodPaths.of(segment).health();
    }

    public static String moduleVersion(String segment) {
        return PodPaths.of(segment).version();
    }

    private static String tail(String... rest) {
        StringBuilder out = new StringBuilder();
        for (String part : rest) {
            out.append('/').append(segment(part));
        }
        return out.toString();
    }

    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
