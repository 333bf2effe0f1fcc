package io.pylon.core.discovery;

import io.pylon.core.config.InvalidSettingException;
import io.pylon.core.config.Settings;
import io.pylon.core.pod.PodIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DiscoveriesTest {
    private static final PodIdentity IDENTITY = new PodIdentity("worker-1", "127.0.0.5", null, null, "local", "worker", "1.0");
    private static final DiscoveredPod SELF = DiscoveredPod.callable("worker-1", "127.0.0.5", null);

    @TempDir
    Path dir;

    @Test
    void theDefaultIsKubernetesInsideAClusterThenStaticWhenListedThenSelf() throws Exception {
        Path token = dir.resolve("token");
        Settings listed = Settings.of(Map.of("pylon.discovery.static", "worker-0=http://127.0.0.4:8091"));

        assertThat(Discoveries.chooseMode(Settings.of(Map.of()), token)).isEqualTo(DiscoveryMode.SELF);
        assertThat(Discoveries.chooseMode(listed, token)).isEqualTo(DiscoveryMode.STATIC);
        Files.writeString(token, "service-account-token");
        assertThat(Discoveries.chooseMode(listed, token)).isEqualTo(DiscoveryMode.KUBERNETES);
        assertThat(Discoveries.chooseMode(Settings.of(Map.of("pylon.discovery.mode", "dns")), token)).isEqualTo(DiscoveryMode.DNS);
    }

    @Test
    void staticDiscoveryListsThePairsAndRecognisesThisPodByName() throws Exception {
        Settings settings = Settings.of(Map.of("pylon.discovery.static",
                "worker-0=http://127.0.0.4:8091/, worker-1=http://127.0.0.5:8091"));

        try (PodDiscovery discovery = Discoveries.create(settings, IDENTITY, 8091, dir.resolve("none"))) {
            List<DiscoveredPod> pods = discovery.pods();
            assertThat(discovery.mode()).isEqualTo(DiscoveryMode.STATIC);
            assertThat(pods).hasSize(2);
            assertThat(pods.get(0)).isEqualTo(DiscoveredPod.callable("worker-0", "127.0.0.4", URI.create("http://127.0.0.4:8091")));
            assertThat(pods.get(1)).isEqualTo(SELF);
        }
    }

    @Test
    void thisPodIsAddedWhenTheStaticListDoesNotNameIt() {
        StaticDiscovery discovery = new StaticDiscovery(List.of(new StaticPeer("worker-0", URI.create("http://127.0.0.4:8091"))), SELF);

        assertThat(discovery.pods()).extracting(DiscoveredPod::podName).containsExactly("worker-0", "worker-1");
    }

    @Test
    void aBadStaticListIsRefusedNamingTheSetting() {
        for (String bad : List.of("worker-0", "worker-0=ftp://x", "=http://127.0.0.1:1", "a=http://127.0.0.1:1,a=http://127.0.0.1:2")) {
            Settings settings = Settings.of(Map.of("pylon.discovery.static", bad));
            assertThatThrownBy(() -> settings.find(DiscoverySettings.STATIC)).isInstanceOf(InvalidSettingException.class)
                    .hasMessageContaining("pylon.discovery.static").hasMessageContaining("PYLON_DISCOVERY_STATIC");
        }
    }

    @Test
    void selfDiscoveryIsThisPodAlone() throws Exception {
        try (PodDiscovery discovery = Discoveries.create(Settings.of(Map.of()), IDENTITY, 8091, dir.resolve("none"))) {
            assertThat(discovery.mode()).isEqualTo(DiscoveryMode.SELF);
            assertThat(discovery.pods()).containsExactly(SELF);
        }
    }

    @Test
    void dnsDiscoveryCallsEachAddressOnThePeerPortAndRecognisesThisPodByAddress() throws Exception {
        DnsDiscovery discovery = new DnsDiscovery("pylon-worker-headless", 8091, SELF, host -> addresses("127.0.0.4", "127.0.0.5"));

        List<DiscoveredPod> pods = discovery.pods();

        assertThat(pods).containsExactly(DiscoveredPod.callable("127.0.0.4", "127.0.0.4", URI.create("http://127.0.0.4:8091")), SELF);
    }

    @Test
    void dnsDiscoveryCallsPodsOverHttpsWhenTheListenerIsTls() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean secure = new java.util.concurrent.atomic.AtomicBoolean();
        DnsDiscovery discovery = new DnsDiscovery("pylon-worker-headless", 8091, SELF, host -> addresses("127.0.0.4"),
                () -> secure.get() ? "https" : "http");

        assertThat(discovery.pods().getFirst().baseUrl()).isEqualTo(URI.create("http://127.0.0.4:8091"));
        secure.set(true); // the module declared its TLS listener after discovery was built
        assertThat(discovery.pods().getFirst().baseUrl()).isEqualTo(URI.create("https://127.0.0.4:8091"));
    }

    @Test
    void dnsDiscoveryOfARealNameResolves() throws Exception {
        DnsDiscovery discovery = new DnsDiscovery("localhost", 8091, SELF);

        assertThat(discovery.pods()).extracting(DiscoveredPod::podIp).contains("127.0.0.1", "127.0.0.5");
    }

    @Test
    void anUnknownHeadlessServiceIsADiscoveryError() {
        DnsDiscovery discovery = new DnsDiscovery("pylon-worker-headless.invalid", 8091, SELF);

        assertThatThrownBy(discovery::pods).isInstanceOf(DiscoveryException.class)
                .hasMessageContaining("pylon-worker-headless.invalid");
    }

    private static InetAddress[] addresses(String... ips) {
        try {
            InetAddress[] result = new InetAddress[ips.length];
            for (int i = 0; i < ips.length; i++) {
                result[i] = InetAddress.getByName(ips[i]);
            }
            return result;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
