package io.pylon.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.pylon.cache.GridTestPods.CachePod;
import io.pylon.cache.GridTestPods.Slot;
import io.pylon.cache.client.ConnectionState;
import io.pylon.cache.client.GridClient;
import io.pylon.cache.client.GridClusterName;
import io.pylon.cache.client.GridLogging;
import io.pylon.cache.client.GridMaps;
import io.pylon.core.http.Json;
import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a viewer sees of the data grid does not let a stock Hazelcast client or member in, while the
 * Worker's client (which holds the environment ID) still joins; no log line (INFO or WARNING, Hazelcast's or the
 * pod's) and no diagnostics answer carries the secret cluster name.
 */
class GridTrustTest {
    static final Slot SLOT = GridTestPods.slot("127.6.15.1");
    static final GridClusterName NAME = GridClusterName.of("test", TestPods.ENVIRONMENT_ID);
    static final List<LogRecord> RECORDS = new CopyOnWriteArrayList<>();
    static final Handler CAPTURE = new Handler() {
        @Override
        public void publish(LogRecord record) {
            RECORDS.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    static CachePod pod;

    @BeforeAll
    static void start() {
        Logger.getLogger("").addHandler(CAPTURE);
        pod = GridTestPods.start("cache-trust", SLOT, SLOT.member(), Map.of("pylon.grid.log-level", "info"));
    }

    @AfterAll
    static void stop() {
        pod.pod().stop();
        Logger.getLogger("").removeHandler(CAPTURE);
        GridLogging.level(Level.WARNING);
    }

    @Test
    void whatAViewerSeesDoesNotLetAStockClientJoinButTheWorkersClientDoes() throws Exception {
        String datagrid = TestPods.get(pod.pod(), "/platform/diagnostics/datagrid?internal=true",
                "Authorization", TestPods.ENVIRONMENT_ID).body();
        JsonNode section = Json.MAPPER.readTree(datagrid).path("datagrid");
        String label = section.path("clusterLabel").asText();
        assertThat(label).isEqualTo(NAME.label());
        assertThat(section.has("clusterName")).isFalse();
        HazelcastInstance member = pod.module().member().instance();
        member.getMap(GridMaps.COUNTERS).put("victim", "kept");

        // the label, the name format of earlier versions (computable from what they showed) and Hazelcast's default
        for (String guess : List.of(label, oldName(), "dev", "pylon-test")) {
            assertThatThrownBy(() -> stockClient(guess)).as(guess).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Unable to connect");
        }
        assertThat(member.getMap(GridMaps.COUNTERS).get("victim")).isEqualTo("kept");

        try (GridClient worker = GridTestPods.client(SLOT.member())) {
            GridTestPods.await("worker client connected", Duration.ofSeconds(15), () -> worker.state() == ConnectionState.CONNECTED);
            assertThat(worker.counters().increment("trust-test", Duration.ofSeconds(30))).isEqualTo(1);
        }
    }

    @Test
    void aStockMemberWithTheLabelFormsItsOwnClusterInsteadOfJoining() {
        Config config = new Config().setClusterName(NAME.label());
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.local.localAddress", "127.6.15.2");
        config.setProperty("hazelcast.socket.bind.any", "false");
        config.setProperty("hazelcast.wait.seconds.before.join", "1");
        config.getJetConfig().setEnabled(false);
        config.getNetworkConfig().setPort(GridTestPods.slot("127.6.15.2").gridPort()).setPortAutoIncrement(false);
        config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        config.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true).setMembers(List.of(SLOT.member()));
        HazelcastInstance intruder = Hazelcast.newHazelcastInstance(config);
        try {
            assertThat(intruder.getCluster().getMembers()).hasSize(1);
            assertThat(pod.module().member().instance().getCluster().getMembers()).hasSize(1);
        } finally {
            intruder.shutdown();
        }
    }

    @Test
    void noLogLineAndNoDiagnosticsAnswerCarriesTheSecretName() throws Exception {
        String all = TestPods.get(pod.pod(), "/platform/diagnostics/all?internal=true",
                "Authorization", TestPods.ENVIRONMENT_ID).body();
        assertThat(all).contains(NAME.label()).doesNotContain(NAME.secret());
        try (GridClient worker = GridTestPods.client(SLOT.member())) {
            GridTestPods.await("worker client connected", Duration.ofSeconds(15), () -> worker.state() == ConnectionState.CONNECTED);
            worker.counters().increment("log-test", Duration.ofSeconds(30));
        }
        assertThatThrownBy(() -> stockClient(NAME.label())).isInstanceOf(IllegalStateException.class);

        List<String> lines = RECORDS.stream().map(GridTrustTest::text).toList();
        assertThat(lines).as("Hazelcast logged at INFO (its banner names the cluster)")
                .anyMatch(line -> line.contains("Cluster name: " + NAME.label()));
        assertThat(RECORDS).as("WARNING lines were logged too (the stock client's refusals)")
                .anyMatch(r -> r.getLevel() == Level.WARNING);
        assertThat(lines).as("log lines at INFO and WARNING").noneMatch(line -> line.contains(NAME.secret()));
    }

    private static String text(LogRecord record) {
        StringBuilder text = new StringBuilder(record.getLevel() + " " + record.getLoggerName() + " " + record.getMessage());
        for (Throwable t = record.getThrown(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            text.append(" | ").append(t);
        }
        return text.toString();
    }

    /** A stock Hazelcast client, as an attacker would configure it: a cluster name and an address. */
    private static void stockClient(String clusterName) {
        ClientConfig config = new ClientConfig();
        config.setClusterName(clusterName);
        config.getNetworkConfig().addAddress(SLOT.member());
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(1500);
        HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
        try {
            client.getMap(GridMaps.COUNTERS).clear();
        } finally {
            client.shutdown();
        }
    }

    private static String oldName() throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(TestPods.ENVIRONMENT_ID.getBytes(StandardCharsets.UTF_8));
        return "pylon-test-" + HexFormat.of().formatHex(digest, 0, 6);
    }
}
