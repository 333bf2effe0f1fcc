package io.pylon.integration.flow;

/**
 * When a flow's runs start.
 *
 * @param schedule the cron schedule, or null for none
 * @param http     whether the flow's trigger key may start runs over HTTP
 */
public record Trigger(FlowSchedule schedule, boolean http) {
}
