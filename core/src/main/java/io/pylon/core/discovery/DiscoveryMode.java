package io.pylon.core.discovery;

import java.util.Locale;

/** How a pod finds the other pods of its module. */
public enum DiscoveryMode {
    /** Pods of the own namespace matching a label selector, kept current by a watch on the Kubernetes API. */
    KUBERNETES,
    /** The A records of a headless Service. */
    DNS,
    /** A fixed list of name=url pairs. */
    STATIC,
    /** This pod alone. */
    SELF;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
