package io.pylon.core.discovery;

import java.util.List;

/** No other pods: the broadcast answers for this pod alone. */
public final class SelfDiscovery implements PodDiscovery {
    private final DiscoveredPod self;

    public SelfDiscovery(DiscoveredPod self) {
        this.self = self;
    }

    @Override
    public DiscoveryMode mode() {
        return DiscoveryMode.SELF;
    }

    @Override
    public List<DiscoveredPod> pods() {
        return List.of(self);
    }
}
