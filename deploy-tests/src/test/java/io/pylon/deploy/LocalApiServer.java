package io.pylon.deploy;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.pylon.core.testing.TestPods;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real Kubernetes control plane without nodes: etcd and kube-apiserver as child processes on loopback
 * (API server on 127.0.21.1, etcd on 127.0.21.2, free ports), RBAC authorisation, a static admin token and a
 * service-account key pair, so TokenRequest issues real service-account tokens. No controller manager or kubelet
 * runs: Deployments create no pods, and tests create pods and set their status themselves, as a kubelet would.
 * The ServiceAccount admission plugin is off because it waits for token Secrets that only the controller manager
 * creates. Threading: driven by one test thread.
 */
final class LocalApiServer implements AutoCloseable {
    static final String API_ADDRESS = "127.0.21.1";
    static final String ETCD_ADDRESS = "127.0.21.2";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    private final Path dir;
    private final int apiPort;
    private final int etcdPort;
    private final String adminToken;
    private final HttpClient etcdClient = HttpClient.newHttpClient();
    private Process etcd;
    private Process apiServer;
    /** How long the last (re)start took until /readyz answered ok. */
    private Duration lastStart;

    private LocalApiServer(Path dir) throws IOException {
        this.dir = dir;
        Command.run("bash", DeployTools.ROOT.resolve("scripts/k8s/pki.sh").toString(), dir.toString(), API_ADDRESS).ok();
        this.adminToken = Files.readString(dir.resolve("admin.token")).strip();
        this.apiPort = freePort(API_ADDRESS);
        this.etcdPort = freePort(ETCD_ADDRESS);
    }

    static LocalApiServer start() {
        LocalApiServer server;
        try {
            server = new LocalApiServer(Files.createTempDirectory("pylon-kube"));
        } catch (IOException e) {
            throw new AssertionError("cannot prepare the local API server: " + e.getMessage(), e);
        }
        try {
            server.writeKubeconfig("admin.kubeconfig", "pylon-test-admin", server.adminToken);
            server.startEtcd();
            server.startApiServer();
            return server;
        } catch (RuntimeException | Error e) {
            // the caller gets no server to close: stop what did start, or etcd outlives the test JVM
            server.close();
            throw e;
        }
    }

    String url() {
        return "https://" + API_ADDRESS + ":" + apiPort;
    }

    Path adminKubeconfig() {
        return dir.resolve("admin.kubeconfig");
    }

    Duration lastStart() {
        return lastStart;
    }

    /** kubectl as the cluster admin; the caller checks the result. */
    Command kubectl(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of(DeployTools.tool("kubectl"), "--kubeconfig", adminKubeconfig().toString()));
        all.addAll(List.of(args));
        return Command.run(Map.of(), 300, all);
    }

    KubernetesClient adminClient() {
        return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(read(adminKubeconfig()))).build();
    }

    /** A kubeconfig for a service account with a fresh token from the TokenRequest API. */
    Path serviceAccountKubeconfig(String namespace, String serviceAccount) {
        String token = kubectl("-n", namespace, "create", "token", serviceAccount, "--duration=1h").ok().strip();
        return writeKubeconfig(namespace + "-" + serviceAccount + ".kubeconfig", "system:serviceaccount:" + namespace + ":"
                + serviceAccount, token);
    }

    private Path writeKubeconfig(String name, String user, String token) {
        String yaml = """
                apiVersion: v1
                kind: Config
                clusters:
                  - name: local
                    cluster:
                      server: %s
                      certificate-authority: %s
                users:
                  - name: "%s"
                    user:
                      token: %s
                contexts:
                  - name: local
                    context: {cluster: local, user: "%s", namespace: pylon}
                current-context: local
                """.formatted(url(), dir.resolve("ca.crt"), user, token, user);
        Path file = dir.resolve(name);
        try {
            Files.writeString(file, yaml);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return file;
    }

    private void startEtcd() {
        String client = "http://" + ETCD_ADDRESS + ":" + etcdPort;
        String peer = "http://" + ETCD_ADDRESS + ":" + freePort(ETCD_ADDRESS);
        etcd = launch("etcd", List.of(DeployTools.tool("etcd"), "--name", "pylon-test", "--data-dir", dir.resolve("etcd").toString(),
                "--listen-client-urls", client, "--advertise-client-urls", client,
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer, "--initial-cluster", "pylon-test=" + peer,
                "--log-level", "warn"));
        awaitUp("etcd", etcd, () -> etcdRevision() > 0);
    }

    void startApiServer() {
        long t0 = System.nanoTime();
        apiServer = launch("kube-apiserver", List.of(DeployTools.tool("kube-apiserver"),
                "--etcd-servers", "http://" + ETCD_ADDRESS + ":" + etcdPort,
                "--bind-address", API_ADDRESS, "--advertise-address", API_ADDRESS, "--secure-port", String.valueOf(apiPort),
                "--insecure-port", "0", "--endpoint-reconciler-type", "none",
                "--tls-cert-file", dir.resolve("apiserver.crt").toString(),
                "--tls-private-key-file", dir.resolve("apiserver.key").toString(),
                "--cert-dir", dir.resolve("certs").toString(),
                "--token-auth-file", dir.resolve("tokens.csv").toString(),
                "--authorization-mode", "RBAC",
                "--service-account-key-file", dir.resolve("sa.pub").toString(),
                "--service-account-signing-key-file", dir.resolve("sa.key").toString(),
                "--service-account-issuer", "https://kubernetes.default.svc",
                "--api-audiences", "https://kubernetes.default.svc",
                // a range to allocate ClusterIPs from in etcd; nothing ever listens on it
                "--service-cluster-ip-range", "10.96.0.0/24",
                "--disable-admission-plugins", "ServiceAccount",
                "--enable-priority-and-fairness=false", "--profiling=false", "--v=1"));
        awaitUp("kube-apiserver", apiServer, this::ready);
        lastStart = Duration.ofNanos(System.nanoTime() - t0);
        System.out.println("figure: kube-apiserver start to /readyz ok ms: " + lastStart.toMillis());
    }

    /** Stops the API server the way a kubelet would (SIGTERM, then SIGKILL after 20 s); etcd keeps its data. */
    void stopApiServer() {
        stop(apiServer);
    }

    /** The current etcd revision, through etcd's JSON gateway. */
    long etcdRevision() {
        String body = etcdPost("/v3/kv/range", "{\"key\":\"AA==\",\"count_only\":true}");
        Matcher revision = Pattern.compile("\"revision\":\"(\\d+)\"").matcher(body);
        return revision.find() ? Long.parseLong(revision.group(1)) : -1;
    }

    /** Writes a key outside the API server's prefix, which only moves etcd's revision on. */
    void bumpEtcdRevision() {
        String key = java.util.Base64.getEncoder().encodeToString("/pylon-test/bump".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        etcdPost("/v3/kv/put", "{\"key\":\"" + key + "\",\"value\":\"" + key + "\"}");
    }

    /** Compacts etcd's history up to the given revision: watches from older resourceVersions expire (410 Gone). */
    void compactEtcd(long revision) {
        etcdPost("/v3/kv/compaction", "{\"revision\":\"" + revision + "\",\"physical\":true}");
    }

    private String etcdPost(String path, String json) {
        try {
            HttpResponse<String> response = etcdClient.send(HttpRequest.newBuilder(URI.create("http://" + ETCD_ADDRESS + ":" + etcdPort + path))
                    .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError("etcd " + path + " answered " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private boolean ready() {
        Command readyz = kubectl("get", "--raw", "/readyz");
        return readyz.exitCode() == 0 && readyz.out().strip().equals("ok");
    }

    private Process launch(String name, List<String> command) {
        try {
            Path log = dir.resolve(name + ".log");
            return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new AssertionError("cannot start " + name + ": " + e.getMessage(), e);
        }
    }

    private void awaitUp(String name, Process process, java.util.function.BooleanSupplier up) {
        long until = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < until) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + ":\n" + tail(name));
            }
            if (up.getAsBoolean()) {
                return;
            }
            sleep(250);
        }
        throw new AssertionError(name + " not ready within " + START_TIMEOUT.toSeconds() + " s:\n" + tail(name));
    }

    /** The last lines a child process logged, for failure messages. */
    String tail(String name) {
        List<String> lines = read(dir.resolve(name + ".log")).lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    private static void stop(Process process) {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static int freePort(String address) {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(address))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new AssertionError("cannot bind " + address + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        stop(apiServer);
        stop(etcd);
        TestPods.deleteTree(dir);
    }
}
