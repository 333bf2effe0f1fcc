package io.pylon.integration;

import io.pylon.core.diagnostics.DiagnosticSection;
import io.pylon.integration.schedule.FlowScheduler;
import io.pylon.integration.store.FlowStore;
import io.pylon.integration.store.IntegrationDatabase;
import io.pylon.integration.store.RunStore;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code integration} diagnostics section: the database, this pod's scheduler (threads, what it executes now),
 * executions due and overdue in the shared database, flows and open runs. Called concurrently; each call reads the
 * database afresh and builds its own answer.
 */
final class IntegrationSection implements DiagnosticSection {
    private final IntegrationDatabase database;
    private final FlowScheduler scheduler;
    private final FlowStore flows;
    private final RunStore runs;
    private final IntegrationMeters meters;
    private final Map<String, Object> settings;

    IntegrationSection(IntegrationDatabase database, FlowScheduler scheduler, FlowStore flows, RunStore runs,
                       IntegrationMeters meters, Map<String, Object> settings) {
        this.database = database;
        this.scheduler = scheduler;
        this.flows = flows;
        this.runs = runs;
        this.meters = meters;
        this.settings = Map.copyOf(settings);
    }

    @Override
    public String name() {
        return "integration";
    }

    @Override
    public Object collect() {
        meters.refresh(scheduler);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("database", database.product());
        out.put("flows", flows.count());
        out.put("openRuns", runs.openRuns());
        out.put("due", meters.due());
        out.put("overdue", meters.overdue());
        out.put("executing", scheduler.executing());
        out.put("runningByFlow", meters.running());
        out.put("settings", settings);
        return out;
    }
}
