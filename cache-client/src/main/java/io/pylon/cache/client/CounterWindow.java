package io.pylon.cache.client;

import java.time.Instant;

/** A counter after an increment: hits in the current window and when that window ends (for Retry-After / reset headers). */
public record CounterWindow(long count, Instant windowStart, Instant windowEnd) {
}
