package io.pylon.integration.flow;

import org.jspecify.annotations.Nullable;

/**
 * When a flow's runs start.
 *
 * @param schedule the cron schedule, or null for none
 * @param http     whether the flow's trigger key may start runs over HTTP
 */
public record Trigger(@Nullable FlowSchedule schedule, boolean http) {
}
