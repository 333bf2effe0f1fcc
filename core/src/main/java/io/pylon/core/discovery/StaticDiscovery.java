package io.pylon.core.discovery;

import java.util.ArrayList;
import java.util.List;

/**
 * A fixed list of pods ({@code ./pylon up} hands each Worker and Cache pod the pods of its module). This pod is
 * recognised by name; when the list does not name it, it is added, since the addressed pod always answers.
 */
public final class StaticDiscovery implements PodDiscovery {
    private final List<DiscoveredPod> pods;

    public StaticDiscovery(List<StaticPeer> peers, DiscoveredPod self) {
        List<DiscoveredPod> all = new ArrayList<>();
        boolean selfListed = false;
        for (StaticPeer peer : peers) {
            if (peer.podName().equals(self.podName())) {
                selfListed = true;
                all.add(self);
            } else {
                all.add(DiscoveredPod.callable(peer.podName(), peer.baseUrl().getHost(), peer.baseUrl()));
            }
        }
        if (!selfListed) {
            all.add(self);
        }
        this.pods = List.copyOf(all);
    }

    @Override
    public DiscoveryMode mode() {
        return DiscoveryMode.STATIC;
    }

    @Override
    public List<DiscoveredPod> pods() {
        return pods;
    }
}
