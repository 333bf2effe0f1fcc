package io.pylon.core.pod;

import org.jspecify.annotations.Nullable;

/** Who and where this pod is: the envelope of every diagnostics answer. */
public record PodIdentity(String podName, String podIp, @Nullable String namespace, @Nullable String nodeName, String envName,
                          String module, String version) {
}
