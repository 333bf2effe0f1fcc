package io.pylon.integration.schedule;

/**
 * The data of a flow's schedule execution in the scheduler's table (JSON).
 *
 * @param flow    the flow's name
 * @param version the flow version the instant was computed for
 * @param instant the cron instant this execution stands for, epoch milliseconds
 */
public record TickData(String flow, long version, long instant) {
}
