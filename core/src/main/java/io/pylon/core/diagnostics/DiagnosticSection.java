package io.pylon.core.diagnostics;

import org.jspecify.annotations.Nullable;

import java.util.Set;

/**
 * One section of a pod's diagnostics answer: {@code jvm}, {@code threads}, {@code connections} (Worker),
 * {@code datagrid} (Cache)... Served at {@code GET /<segment>/diagnostics/<name>} under the JSON key {@link #key()},
 * and part of {@code all} unless {@link #inAll()} says otherwise.
 *
 * <p>Threading contract: a section is registered once at start-up and then called <em>concurrently</em>, from request
 * virtual threads (a pod's own answers) and from broadcast virtual threads (this pod's element of a broadcast), with
 * no lock held by the caller. {@link #collect()} must therefore be safe to run in parallel with itself: read shared
 * state through thread-safe objects (MXBeans, concurrent counters, the grid's own API) and build a fresh result per
 * call. It runs on a virtual thread, so it may block on I/O, but CPU-heavy work should be marked {@link #heavy()} so
 * the pod's limit of concurrent heavy answers bounds it. {@link #aggregate(java.util.List)} is called by one broadcast
 * thread at a time per broadcast, but several broadcasts may aggregate at once.
 */
public interface DiagnosticSection {

    /** The path name: {@code threaddump}. */
    String name();

    /** The JSON key of the section: {@code threadDump} for {@code threaddump}. */
    default String key() {
        return name();
    }

    /** Other path names answering the same section under the alias's own key ({@code hazelcast} for {@code datagrid}). */
    default Set<String> aliases() {
        return Set.of();
    }

    /** Whether {@code all} includes it (the heap dump is never part of {@code all}). */
    default boolean inAll() {
        return true;
    }

    /**
     * Whether building it is expensive enough to count against the pod's limit of concurrent heavy answers
     * ({@code threaddump}); {@code all} always counts.
     */
    default boolean heavy() {
        return false;
    }

    /**
     * Whether this call counts against the pod's rate of heavy calls per minute ({@code HeavyCallRate}): heavy reads,
     * unless the section says otherwise (a histogram that collects nothing, starting a recording).
     */
    default boolean rateLimited(String method, DiagnosticsQuery query) {
        return "GET".equals(method) && heavy(query);
    }

    /** Whether this read is heavy: {@link #heavy()} unless its parameters decide (a recording's summary is). */
    default boolean heavy(DiagnosticsQuery query) {
        return heavy();
    }

    /** The section's content: anything Jackson can write (a Map, a record, a JsonNode). */
    Object collect() throws Exception;

    /**
     * The section's content for a call with query parameters ({@code ?top=10}); sections without parameters keep
     * the default, which ignores them.
     *
     * @throws InvalidParameterException for a parameter of the wrong form or out of its bounds
     */
    default Object collect(DiagnosticsQuery query) throws Exception {
        return collect();
    }

    /**
     * Checks the parameters of a call before it is answered or broadcast, so that a bad one is refused once, with
     * 400, rather than by every pod. The default accepts everything.
     *
     * @param method {@code GET}, or one of {@link #changes()}
     * @throws InvalidParameterException naming the parameter and its bounds
     */
    default void validate(String method, DiagnosticsQuery query) {
    }

    /** The HTTP methods besides GET that change something on the pod ({@code PUT}, {@code DELETE} for loggers). */
    default Set<String> changes() {
        return Set.of();
    }

    /**
     * Applies a change ({@code PUT ?logger=..&level=..}) on this pod and answers its result, under {@link #key()}
     * like a read. Called concurrently like {@link #collect()}.
     *
     * @param method one of {@link #changes()}
     */
    default Object change(String method, DiagnosticsQuery query) throws Exception {
        throw new UnsupportedOperationException(name() + " takes no " + method);
    }

    /**
     * Whether a broadcast adds a cluster-wide summary of this section beside {@code pods} (the data grid's totals per
     * map, say). Only then does the broadcast read the pods' answers; otherwise it passes their bytes on untouched.
     */
    default boolean aggregates() {
        return false;
    }

    /**
     * The cluster-wide summary for a broadcast, written at the top level under the section's key.
     *
     * @param pods the broadcast's pod elements that answered, each holding only {@code podName} and this section
     *             (under the key the call used: an alias's own name)
     */
    default @Nullable Object aggregate(java.util.List<com.fasterxml.jackson.databind.JsonNode> pods) {
        return null;
    }
}
