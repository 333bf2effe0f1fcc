package io.pylon.integration.step;

import org.jspecify.annotations.Nullable;

import java.util.Map;

/**
 * A response as a step keeps it: at most the step's body bound.
 *
 * @param truncated whether the body was longer than the bound and was cut (the rest was never read)
 */
public record HttpReply(int status, Map<String, String> headers, byte[] body, @Nullable String contentType, boolean truncated) {
}
