package io.pylon.manager.deployments;

import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * What a Worker pod last told the Manager in its poll: the bundle it serves and where it came from
 * ({@code manager}, {@code disk}, {@code grid}), and the last version it refused with the reason.
 */
public record GatewayPod(String environment, String podName, @Nullable String podIp, @Nullable Long appliedVersion,
                         @Nullable String appliedHash, String source, @Nullable Long rejectedVersion,
                         @Nullable String lastError, Instant lastContact) {
}
