package io.pylon.manager.deployments;

import java.time.Instant;

/**
 * What a Worker pod last told the Manager in its poll: the bundle it serves and where it came from
 * ({@code manager}, {@code disk}, {@code grid}), and the last version it refused with the reason.
 */
public record GatewayPod(String environment, String podName, String podIp, Long appliedVersion, String appliedHash,
                         String source, Long rejectedVersion, String lastError, Instant lastContact) {
}
