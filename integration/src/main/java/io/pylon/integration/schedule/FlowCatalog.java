package io.pylon.integration.schedule;

import org.jspecify.annotations.Nullable;

import io.pylon.integration.flow.Flow;
import io.pylon.integration.flow.FlowParser;
import io.pylon.integration.flow.FlowSchedule;
import io.pylon.integration.flow.InvalidFlowException;
import io.pylon.integration.store.FlowStore;
import io.pylon.integration.store.StoredFlow;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The stored flows, parsed once per version: a run reads the current version from the database (another pod may
 * have changed it) and parses it only when that version is new to this pod. Thread-safe: a concurrent map of
 * immutable entries, bounded by the number of flows (one entry per name).
 */
public final class FlowCatalog {
    private final FlowStore store;
    private final FlowParser parser;
    private final ConcurrentMap<String, Parsed> parsed = new ConcurrentHashMap<>();

    /** A flow's version, whether it is on, and what it parsed to. */
    public record Parsed(long version, boolean enabled, Flow flow) {
        /** The schedule the flow runs on now: none while it is switched off. */
        public FlowSchedule schedule() {
            return enabled ? flow.trigger().schedule() : null;
        }
    }

    public FlowCatalog(FlowStore store, FlowParser parser) {
        this.store = store;
        this.parser = parser;
    }

    /** What a stored flow parses to (parsed once per version), or null when its document no longer parses. */
    public Parsed of(StoredFlow stored) {
        Parsed cached = parsed.get(stored.name());
        if (cached != null && cached.version() == stored.version()) {
            return cached;
        }
        try {
            Parsed fresh = new Parsed(stored.version(), stored.enabled(), parser.parse(stored.document()));
            parsed.put(stored.name(), fresh);
            return fresh;
        } catch (InvalidFlowException e) {
            return null;
        }
    }

    /** The flow's current version, or null when there is no such flow (or its stored document no longer parses). */
    public @Nullable Parsed current(String name) {
        StoredFlow stored = store.find(name);
        if (stored == null) {
            parsed.remove(name);
            return null;
        }
        return of(stored);
    }
}
