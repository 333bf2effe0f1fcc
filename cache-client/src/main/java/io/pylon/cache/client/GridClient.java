package io.pylon.cache.client;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.config.ClientConnectionStrategyConfig;
import com.hazelcast.client.config.ConnectionRetryConfig;
import com.hazelcast.client.impl.connection.tcp.RoutingMode;
import com.hazelcast.cluster.Member;
import com.hazelcast.config.ListenerConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.core.LifecycleListener;
import io.pylon.core.config.InvalidSettingException;
import io.pylon.core.config.Settings;
import io.pylon.core.pod.CoreSettings;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A pod's connection to the Cache data grid (Workers: counters, responses, the bundle copy; the Manager: the bundle copy): a Hazelcast client with smart routing (each operation goes straight
 * to the member owning its key) that starts without waiting for the grid, reconnects by itself forever with
 * exponential back-off, and makes every operation fail fast with {@link GridUnavailableException} while it is not
 * connected.
 *
 * <p>Threading: operations are called concurrently by request threads; Hazelcast's lifecycle thread writes the
 * connection status (a volatile, immutable value that every call reads) and counts connects (atomic); {@link #close}
 * may run on any thread.
 */
public final class GridClient implements AutoCloseable {
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private static final System.Logger LOG = System.getLogger(GridClient.class.getName());

    private final HazelcastInstance client;
    private final GridClusterName clusterName;
    private final List<String> addresses;
    private final GridCalls calls;
    private final CounterStore counters;
    private final ResponseCache responses;
    private final BundleStore bundles;
    private final AtomicLong connects = new AtomicLong();
    private final String instanceName = "pylon-grid-client-" + INSTANCES.incrementAndGet();
    private final Instant started = Instant.now();
    private volatile boolean waitNoticed;
    private volatile ConnectionStatus status = new ConnectionStatus(ConnectionState.CONNECTING, Instant.now());

    private GridClient(Settings settings, GridClusterName clusterName) {
        requireAddresses(settings);
        this.clusterName = clusterName;
        this.addresses = List.copyOf(settings.find(GridClientSettings.ADDRESSES));
        Duration timeout = settings.get(GridClientSettings.OPERATION_TIMEOUT);
        this.calls = new GridCalls(() -> status, timeout);
        // Hazelcast logs each failed attempt with a stack trace; before the first connection that is only the Cache
        // pods still starting: one line says so instead
        RedactingLoggerFactory.quietUntilConnected(instanceName, () -> {
            waitNoticed = true;
            LOG.log(System.Logger.Level.INFO, "The data grid at " + String.join(",", addresses) + " does not answer yet (normal"
                    + " while the Cache pods start); connecting in the background, grid operations fail fast until then");
        });
        this.client = HazelcastClient.newHazelcastClient(config(settings, timeout, this::onLifecycle));
        this.counters = new CounterStore(client, calls);
        this.responses = new ResponseCache(client, calls);
        this.bundles = new BundleStore(client, calls);
    }

    /** Starts a client of the environment's grid (cluster name from the environment name and ID); returns at once. */
    public static GridClient start(Settings settings) {
        requireAddresses(settings);
        return start(settings, GridClusterName.of(settings));
    }

    private static void requireAddresses(Settings settings) {
        if (!GridClientSettings.configured(settings)) {
            throw new InvalidSettingException("Setting " + GridClientSettings.ADDRESSES.key() + " (environment variable "
                    + GridClientSettings.ADDRESSES.envName() + ") names no data grid member.");
        }
    }

    /** Starts a client of the named cluster; returns at once, connecting in the background. */
    public static GridClient start(Settings settings, GridClusterName clusterName) {
        return new GridClient(settings, clusterName);
    }

    private ClientConfig config(Settings settings, Duration timeout, LifecycleListener listener) {
        ClientConfig config = new ClientConfig();
        config.setClusterName(clusterName.secret());
        config.setInstanceName(instanceName);
        GridLogging.apply(clusterName, config::setProperty);
        // an operation still running inside Hazelcast after the caller gave up is abandoned soon after
        config.setProperty("hazelcast.client.invocation.timeout.seconds",
                String.valueOf(Math.max(1, (timeout.toMillis() + 999) / 1000)));
        config.getMetricsConfig().setEnabled(false);
        // Members confirm backups before answering. With acks sent to the client instead, an ack that arrives on a
        // connection whose listener is not registered yet (just after connecting) holds the operation for the
        // backup timeout (5 s by default): longer than the operation timeout.
        config.setBackupAckToClientEnabled(false);
        config.getNetworkConfig().setAddresses(addresses)
                .setConnectionTimeout(Math.toIntExact(settings.get(GridClientSettings.CONNECT_TIMEOUT).toMillis()));
        config.getNetworkConfig().getAutoDetectionConfig().setEnabled(false);
        config.getNetworkConfig().getClusterRoutingConfig().setRoutingMode(RoutingMode.ALL_MEMBERS);
        ClientConnectionStrategyConfig strategy = config.getConnectionStrategyConfig();
        strategy.setAsyncStart(true).setReconnectMode(ClientConnectionStrategyConfig.ReconnectMode.ASYNC);
        ConnectionRetryConfig retry = strategy.getConnectionRetryConfig();
        retry.setInitialBackoffMillis(Math.toIntExact(settings.get(GridClientSettings.RECONNECT_INITIAL_BACKOFF).toMillis()))
                .setMaxBackoffMillis(Math.toIntExact(settings.get(GridClientSettings.RECONNECT_MAX_BACKOFF).toMillis()))
                .setMultiplier(2)
                .setJitter(0.2)
                .setClusterConnectTimeoutMillis(-1);
        GridSerialization.register(config.getSerializationConfig());
        config.addListenerConfig(new ListenerConfig(listener));
        return config;
    }

    private void onLifecycle(LifecycleEvent event) {
        switch (event.getState()) {
            case CLIENT_CONNECTED -> {
                RedactingLoggerFactory.connected(instanceName);
                if (connects.incrementAndGet() == 1 && waitNoticed) {
                    LOG.log(System.Logger.Level.INFO, "Connected to the data grid after "
                            + Duration.between(started, Instant.now()).toMillis() + " ms");
                }
                status = new ConnectionStatus(ConnectionState.CONNECTED, Instant.now());
            }
            case CLIENT_DISCONNECTED -> status = new ConnectionStatus(ConnectionState.DISCONNECTED, Instant.now());
            case SHUTTING_DOWN, SHUTDOWN -> {
                if (status.state() != ConnectionState.CLOSED) {
                    status = new ConnectionStatus(ConnectionState.CLOSED, Instant.now());
                }
            }
            default -> {
            }
        }
    }

    public ConnectionStatus status() {
        return status;
    }

    public ConnectionState state() {
        return status.state();
    }

    /** The non-secret label of the cluster (never its name). */
    public String clusterLabel() {
        return clusterName.label();
    }

    public CounterStore counters() {
        return counters;
    }

    public ResponseCache responses() {
        return responses;
    }

    public BundleStore bundles() {
        return bundles;
    }

    /** The client's state for the Worker's {@code connections} diagnostics and health. */
    public Map<String, Object> describe() {
        ConnectionStatus current = status;
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("state", current.state().name());
        map.put("since", current.since().toString());
        map.put("clusterLabel", clusterName.label());
        map.put("addresses", addresses);
        map.put("members", current.state() == ConnectionState.CONNECTED ? members() : List.of());
        map.put("connects", connects.get());
        map.put("operationTimeoutMs", calls.timeoutMillis());
        Map<String, Object> operations = new LinkedHashMap<>();
        operations.put("succeeded", calls.succeeded.sum());
        operations.put("failed", calls.failed.sum());
        operations.put("refusedWhileDisconnected", calls.refused.sum());
        operations.put("lastFailure", calls.lastFailure());
        map.put("operations", operations);
        return map;
    }

    private List<String> members() {
        try {
            return client.getCluster().getMembers().stream().map(GridClient::address).toList();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    private static String address(Member member) {
        return member.getAddress().getHost() + ":" + member.getAddress().getPort();
    }

    @Override
    public void close() {
        RedactingLoggerFactory.connected(instanceName);
        status = new ConnectionStatus(ConnectionState.CLOSED, Instant.now());
        client.shutdown();
    }
}
