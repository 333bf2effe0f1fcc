package io.pylon.core.discovery;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.net.URI;
import java.util.List;

/** How a pod finds the other pods of its module, for broadcast diagnostics. */
public final class DiscoverySettings {
    private DiscoverySettings() {
    }

    public static final Setting<DiscoveryMode> MODE = Setting.of("pylon.discovery.mode",
            "How a pod finds the pods of its module for broadcast diagnostics: kubernetes, dns, static or self. "
                    + "Default: kubernetes when a service-account token is mounted, else static when "
                    + "pylon.discovery.static is set, else self.", null, SettingType.oneOf(DiscoveryMode.class));

    public static final Setting<List<StaticPeer>> STATIC = Setting.of("pylon.discovery.static",
            "Static discovery: the pods of this module as name=url pairs, comma-separated "
                    + "(worker-0=http://127.0.0.4:8091,worker-1=http://127.0.0.5:8091); ./pylon up sets it.",
            null, StaticPeer.LIST_TYPE);

    public static final Setting<String> LABEL_SELECTOR = Setting.of("pylon.discovery.kubernetes.label-selector",
            "Kubernetes discovery: label selector of this module's pods in the pod's namespace. Default: app=<module>.",
            null, SettingType.NON_EMPTY);

    public static final Setting<String> PORT_NAME = Setting.of("pylon.discovery.kubernetes.port-name",
            "Kubernetes discovery: name of the container port a peer serves HTTP on; a pod without it is called on "
                    + "pylon.discovery.port.", "http", SettingType.NON_EMPTY);

    public static final Setting<URI> API_URL = Setting.of("pylon.discovery.kubernetes.api-url",
            "Kubernetes discovery: the API server. Default: the in-cluster service account (or kubeconfig outside a cluster).",
            null, SettingType.HTTP_URL);

    public static final Setting<String> DNS_SERVICE = Setting.of("pylon.discovery.dns.service",
            "DNS discovery: host name of the headless Service whose A records are this module's pods. "
                    + "Default: pylon-<module>-headless.", null, SettingType.NON_EMPTY);

    public static final Setting<Integer> PORT = Setting.of("pylon.discovery.port",
            "Port peers found by DNS or Kubernetes discovery are called on. Default: this pod's own port.",
            null, SettingType.intRange(1, 65535));

    public static List<Setting<?>> all() {
        return List.of(MODE, STATIC, LABEL_SELECTOR, PORT_NAME, API_URL, DNS_SERVICE, PORT);
    }
}
