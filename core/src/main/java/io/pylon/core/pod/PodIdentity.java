package io.pylon.core.pod;

/** Who and where this pod is: the envelope of every diagnostics answer. */
public record PodIdentity(String podName, String podIp, String namespace, String nodeName, String envName,
                          String module, String version) {
}
