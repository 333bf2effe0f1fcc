package io.pylon.manager.console;

import io.helidon.http.Status;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * One diagnostics call the console forwards: which module, which diagnostics name, and optionally one pod or the
 * {@code internal} flag, validated before anything leaves the Manager.
 */
record DiagnosticTarget(String module, String name, String pod, Boolean internal) {
    static final Set<String> MODULES = Set.of("worker", "cache");
    private static final Set<String> COMMON = Set.of("jvm", "threads", "threaddump", "heapdump", "env", "health", "all");
    private static final Pattern POD_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");

    static DiagnosticTarget parse(String module, String name, String pod, String internal) {
        if (!MODULES.contains(module)) {
            throw new ConsoleException(Status.NOT_FOUND_404, "unknown_module",
                    "Diagnostics exist for the modules worker and cache, not '" + clip(module) + "'.");
        }
        if (!COMMON.contains(name) && !moduleSpecific(module, name)) {
            throw new ConsoleException(Status.NOT_FOUND_404, "unknown_diagnostics",
                    "The " + module + " has no diagnostics named '" + clip(name) + "'; it has jvm, threads, threaddump, "
                            + "heapdump, env, health, all and " + ("worker".equals(module) ? "connections" : "datagrid") + ".");
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
        return "worker".equals(module) ? name.equals("connections") : name.equals("datagrid") || name.equals("hazelcast");
    }

    boolean isHeapDump() {
        return name.equals("heapdump");
    }

    /** Heap dumps and environment variables may hold secrets of the pod: admins only. */
    boolean adminOnly() {
        return name.equals("heapdump") || name.equals("env");
    }

    /** Reads that the audit log records: they expose a pod's memory or its environment. */
    boolean audited() {
        return name.equals("heapdump") || name.equals("env") || name.equals("all");
    }

    /** {@code all} carries the env section, which a viewer must not see. */
    boolean carriesEnv() {
        return name.equals("all");
    }

    /** How the audit log names what was read: {@code dev/worker/worker-0} or {@code dev/worker}. */
    String auditTarget(String environment) {
        return environment + "/" + module + (pod == null ? "" : "/" + pod);
    }

    private static String clip(String value) {
        String printable = value.replaceAll("[^\\x20-\\x7E]", "?");
        return printable.length() > 40 ? printable.substring(0, 40) + "..." : printable;
    }
}
