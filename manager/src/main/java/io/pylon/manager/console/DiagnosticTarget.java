package io.pylon.manager.console;

import io.helidon.http.Status;
import org.jspecify.annotations.Nullable;

import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One diagnostics call the console forwards: which module, which diagnostics name, and optionally one pod or the
 * {@code internal} flag, validated before anything leaves the Manager.
 */
record DiagnosticTarget(String module, String name, String pod, @Nullable Boolean internal, String method,
                        Map<String, String> parameters) {
    static final Set<String> MODULES = Set.of("worker", "cache");
    private static final Set<String> COMMON = Set.of("jvm", "threads", "threaddump", "heapdump", "env", "health", "all",
            "hotthreads", "histogram", "loggers", "jfr", "compare", "postmortem");
    /** The query parameters of the names that take them, passed on to the pods, which check their bounds. */
    private static final Set<String> PARAMETERS = Set.of("interval", "samples", "top", "live", "prefix", "logger",
            "level", "ttl", "duration", "settings", "maxSizeMb", "id", "download", "compress", "view", "sections", "all");
    private static final Pattern PARAMETER_VALUE = Pattern.compile("[A-Za-z0-9._$:-]{0,200}");
    /** {@code sections} of {@code all} and {@code compare}: section names, comma-separated. */
    private static final Pattern SECTIONS_VALUE = Pattern.compile("[a-z]{1,40}(,[a-z]{1,40}){0,15}");
    /** The names, besides GET, that change something on the pods: admins only, and audited. */
    private static final Map<String, Set<String>> CHANGES = Map.of("loggers", Set.of("PUT", "DELETE"),
            "jfr", Set.of("POST", "DELETE"));

    DiagnosticTarget(String module, String name, String pod, @Nullable Boolean internal) {
        this(module, name, pod, internal, "GET", Map.of());
    }

    /** A call with a method and query parameters; only parameters the pods read are passed on. */
    static DiagnosticTarget parse(String module, String name, String pod, String internal, String method,
                                  Map<String, String> query) {
        DiagnosticTarget target = parse(module, name, pod, internal);
        if (!"GET".equals(method) && !CHANGES.getOrDefault(name, Set.of()).contains(method)) {
            throw new ConsoleException(Status.METHOD_NOT_ALLOWED_405, "method_not_allowed",
                    "The diagnostics '" + name + "' take GET" + CHANGES.getOrDefault(name, Set.of()).stream().sorted()
                            .map(m -> ", " + m).collect(java.util.stream.Collectors.joining()) + ", not " + clip(method) + ".");
        }
        Map<String, String> parameters = new java.util.TreeMap<>(); // sorted: the audit target reads the same every time
        for (Map.Entry<String, String> entry : query.entrySet()) {
            if (!PARAMETERS.contains(entry.getKey())) {
                continue;
            }
            if (entry.getKey().equals("sections")) {
                if (!SECTIONS_VALUE.matcher(entry.getValue()).matches()) {
                    throw new ConsoleException(Status.BAD_REQUEST_400, "invalid_request", "Query parameter sections must "
                            + "be up to 16 section names (lower-case letters), comma-separated, such as jvm,threads.");
                }
            } else if (!PARAMETER_VALUE.matcher(entry.getValue()).matches()) {
                throw new ConsoleException(Status.BAD_REQUEST_400, "invalid_request", "Query parameter "
                        + entry.getKey() + " must be up to 200 letters, digits, '.', '_', '$', ':' or '-'.");
            }
            parameters.put(entry.getKey(), entry.getValue());
        }
        return new DiagnosticTarget(module, name, target.pod(), target.internal(), method,
                java.util.Collections.unmodifiableMap(parameters));
    }
    private static final Pattern POD_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");

    static DiagnosticTarget parse(String module, String name, String pod, String internal) {
        if (!MODULES.contains(module)) {
            throw new ConsoleException(Status.NOT_FOUND_404, "unknown_module",
                    "Diagnostics exist for the modules worker and cache, not '" + clip(module) + "'.");
        }
        if (!COMMON.contains(name) && !moduleSpecific(module, name)) {
            throw new ConsoleException(Status.NOT_FOUND_404, "unknown_diagnostics",
                    "The " + module + " has no diagnostics named '" + clip(name) + "'; it has jvm, threads, threaddump, "
                            + "heapdump, env, health, hotthreads, histogram, loggers, jfr, compare, postmortem, all and "
                            + ("worker".equals(module) ? "connections and config" : "datagrid") + ".");
        }
        if (pod != null && !POD_NAME.matcher(pod).matches()) {
            throw new ConsoleException(Status.BAD_REQUEST_400, "invalid_request",
                    "Query parameter pod must be a pod name (letters, digits, '.', '-', '_').");
        }
        Boolean flag = null;
        if (internal != null) {
            if (!internal.equals("true") && !internal.equals("false")) {
                throw new ConsoleException(Status.BAD_REQUEST_400, "invalid_request",
                        "Query parameter internal must be true or false.");
            }
            flag = Boolean.valueOf(internal);
        }
        return new DiagnosticTarget(module, name, pod, flag);
    }

    private static boolean moduleSpecific(String module, String name) {
        // a Worker's config: the gateway bundle it applied or refused, where from (docs/control-plane.md)
        return "worker".equals(module) ? name.equals("connections") || name.equals("config")
                : name.equals("datagrid") || name.equals("hazelcast");
    }

    boolean isHeapDump() {
        return name.equals("heapdump");
    }

    /**
     * Heap dumps, environment variables and flight recordings (which hold the environment and system properties) may
     * hold secrets of the pod, and changes (log levels, recordings) act on it: admins only.
     */
    boolean adminOnly() {
        return name.equals("heapdump") || name.equals("env") || name.equals("jfr") || isChange();
    }

    /**
     * Reads that the audit log records (they expose a pod's memory or its environment, or, for a black-box capture,
     * several sections at once like {@code all}), and every change. Not {@code compare}: the Server Management screen
     * asks it with every refresh and {@code pylon pods}/{@code top} with every call, so auditing it would bury the
     * audit log, and it never shows a masked value.
     */
    boolean audited() {
        return name.equals("heapdump") || name.equals("env") || name.equals("all") || name.equals("jfr")
                || readsCapture() || isChange() || weighsOnThePods();
    }

    /**
     * Reads that cost every pod real work and that viewers may ask: a thread dump, hot threads (stacks sampled for up to
     * 10 s), a histogram of live objects (a full collection on every pod). Audited with the caller's name, and rate-
     * limited by the pods per caller, whom the console names to them.
     */
    boolean weighsOnThePods() {
        return name.equals("threaddump") || name.equals("hotthreads")
                || name.equals("histogram") && !"false".equalsIgnoreCase(parameters.getOrDefault("live", "true"));
    }

    /** {@code postmortem?id=}: one capture of the black box (listing the captures is not). */
    boolean readsCapture() {
        return name.equals("postmortem") && parameters.containsKey("id");
    }

    boolean isChange() {
        return !"GET".equals(method);
    }

    /** The audit action: {@code diagnostics.heapdump}, or {@code diagnostics.loggers.PUT} for a change. */
    String auditAction() {
        return "diagnostics." + name + (isChange() ? "." + method : "");
    }

    /** {@code all} carries the env section and {@code compare} environment values, which a viewer must not see. */
    boolean carriesEnv() {
        return name.equals("all") || name.equals("compare");
    }

    /** How the audit log names what was read: {@code dev/worker/worker-0} or {@code dev/worker}. */
    String auditTarget(String environment) {
        String where = environment + "/" + module + (pod == null ? "" : "/" + pod);
        if (readsCapture()) {
            return where + " id=" + parameters.get("id");
        }
        if (!isChange() && !weighsOnThePods() || parameters.isEmpty()) {
            return where;
        }
        StringBuilder what = new StringBuilder(where).append(' ');
        parameters.forEach((k, v) -> what.append(k).append('=').append(v).append(' '));
        return what.toString().strip();
    }

    private static String clip(String value) {
        String printable = value.replaceAll("[^\\x20-\\x7E]", "?");
        return printable.length() > 40 ? printable.substring(0, 40) + "..." : printable;
    }
}
