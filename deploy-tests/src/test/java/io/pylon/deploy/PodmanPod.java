package io.pylon.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.pylon.core.http.Json;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One Pylon pod as a podman container of the image, run the way its Deployment runs it: the container's security
 * context and memory/CPU limits taken from the rendered manifest, the data directory and /tmp as volumes, the
 * manifest's environment, and host networking with the pod bound to its own loopback address (the one difference
 * from a cluster, where each pod has its own network namespace). Threading: driven by one test thread.
 */
final class PodmanPod implements AutoCloseable {
    static final String PODMAN = DeployTools.ROOT.resolve("scripts/container/podman.sh").toString();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final String name;
    final String address;
    final int port;
    final Path dataDir;
    final long memoryLimitBytes;
    private final List<String> runArgs;
    private long startedAt;
    private Duration firstHealthy;

    /**
     * @param deployment the Deployment as kustomize renders it; its first container is what runs
     * @param env        settings of this pod on top of the manifest's literal ones (pod identity, peers, bind address)
     */
    PodmanPod(String image, JsonNode deployment, String name, String address, Map<String, String> env) throws IOException {
        this(image, deployment, name, address, env, null);
    }

    /** @param memoryLimit a Kubernetes quantity (512Mi, 1Gi) in place of the manifest's memory limit; null: the manifest's */
    PodmanPod(String image, JsonNode deployment, String name, String address, Map<String, String> env, String memoryLimit)
            throws IOException {
        this.name = name;
        this.address = address;
        JsonNode podSpec = deployment.path("spec").path("template").path("spec");
        JsonNode container = podSpec.path("containers").get(0);
        this.port = container.path("ports").get(0).path("containerPort").asInt();
        this.dataDir = Files.createTempDirectory("pylon-" + name);
        Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwxr-x---"));
        JsonNode podSecurity = podSpec.path("securityContext");
        JsonNode security = container.path("securityContext");
        String uid = podSecurity.path("runAsUser").asText();
        String gid = podSecurity.path("runAsGroup").asText();
        // what fsGroup does for an emptyDir: the volume belongs to the pod's group
        Command.run("chown", uid + ":" + gid, dataDir.toString()).ok();
        this.memoryLimitBytes = bytes(memoryLimit != null ? memoryLimit : container.path("resources").path("limits").path("memory").asText());

        List<String> args = new ArrayList<>(List.of(PODMAN, "run", "-d", "--name", name, "--network", "host",
                "--user", uid + ":" + gid,
                "--memory", String.valueOf(memoryLimitBytes), "--memory-swap", String.valueOf(memoryLimitBytes),
                "--cpus", cpus(container.path("resources").path("limits").path("cpu").asText()),
                "-v", dataDir + ":/var/lib/pylon:rw",
                "--tmpfs", "/tmp:rw,nosuid,nodev,mode=1777,size=" + bytes(volumeLimit(podSpec, "tmp"))));
        if (security.path("readOnlyRootFilesystem").asBoolean()) {
            args.addAll(List.of("--read-only", "--read-only-tmpfs=false"));
        }
        if (!security.path("allowPrivilegeEscalation").asBoolean(true)) {
            args.addAll(List.of("--security-opt", "no-new-privileges"));
        }
        for (JsonNode cap : security.path("capabilities").path("drop")) {
            args.addAll(List.of("--cap-drop", cap.asText().toLowerCase()));
        }
        Map<String, String> environment = new LinkedHashMap<>();
        for (JsonNode var : container.path("env")) {
            if (var.has("value") && !var.path("value").asText().contains("$(")) {
                environment.put(var.path("name").asText(), var.path("value").asText());
            }
        }
        environment.putAll(env);
        environment.put("PYLON_POD_NAME", name);
        environment.put("PYLON_POD_IP", address);
        environment.put("PYLON_SERVER_BIND", address);
        environment.forEach((k, v) -> args.addAll(List.of("--env", k + "=" + v)));
        args.add(image);
        container.path("args").forEach(a -> args.add(a.asText()));
        this.runArgs = args;
    }

    void start() {
        Command.run(PODMAN, "rm", "--force", "--ignore", name);
        startedAt = System.nanoTime();
        firstHealthy = null;
        Command.run(Map.of(), 120, runArgs).ok();
    }

    String url() {
        return "http://" + address + ":" + port;
    }

    /** Waits for the first 200 of the health endpoint and returns how long after `podman run` it came. */
    Duration awaitHealthy(Duration patience) {
        long until = System.nanoTime() + patience.toNanos();
        while (System.nanoTime() < until) {
            try {
                if (get("/platform/management/health", Map.of()).statusCode() == 200) {
                    firstHealthy = Duration.ofNanos(System.nanoTime() - startedAt);
                    return firstHealthy;
                }
            } catch (IOException e) {
                // not listening yet
            }
            JsonNode state = inspect().path("State");
            if (!state.path("Running").asBoolean()) {
                throw new AssertionError(name + " stopped (" + state + "):\n" + logs());
            }
            LocalApiServer.sleep(100);
        }
        throw new AssertionError(name + " not healthy within " + patience.toSeconds() + " s:\n" + logs());
    }

    HttpResponse<String> get(String path, Map<String, String> headers) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(60));
        headers.forEach(request::header);
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    HttpResponse<java.io.InputStream> stream(String path, Map<String, String> headers) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(120));
        headers.forEach(request::header);
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    HttpResponse<String> post(String path, String form) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form)).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    JsonNode inspect() {
        try {
            return Json.MAPPER.readTree(Command.run(PODMAN, "inspect", name).ok()).get(0);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The process id, on the host, of the container's JVM. */
    long pid() {
        return inspect().path("State").path("Pid").asLong();
    }

    /** The command line of the container's JVM, from /proc on the host: its arguments one by one. */
    List<String> commandLine() throws IOException {
        String raw = Files.readString(Path.of("/proc", String.valueOf(pid()), "cmdline"));
        return List.of(raw.split("\0"));
    }

    /** Resident memory of the container's JVM, from /proc on the host. */
    long rssBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
            }
        }
        throw new AssertionError("no VmRSS for " + name);
    }

    String logs() {
        Command logs = Command.run(PODMAN, "logs", name);
        return logs.out() + logs.err();
    }

    /** podman stop: SIGTERM, then SIGKILL after the grace period, as the kubelet does. */
    void stop() {
        Command.run(Map.of(), 120, List.of(PODMAN, "stop", "--time", "30", name)).ok();
    }

    @Override
    public void close() {
        Command.run(Map.of(), 120, List.of(PODMAN, "rm", "--force", "--ignore", "--time", "5", name));
        Command.run("rm", "-rf", dataDir.toString());
    }

    private static String volumeLimit(JsonNode podSpec, String volume) {
        for (JsonNode v : podSpec.path("volumes")) {
            if (v.path("name").asText().equals(volume)) {
                return v.path("emptyDir").path("sizeLimit").asText("64Mi");
            }
        }
        return "64Mi";
    }

    /** Kubernetes quantities as used by the manifests: 768Mi, 1Gi, 1536Mi. */
    static long bytes(String quantity) {
        if (quantity.endsWith("Gi")) {
            return Long.parseLong(quantity.substring(0, quantity.length() - 2)) << 30;
        }
        if (quantity.endsWith("Mi")) {
            return Long.parseLong(quantity.substring(0, quantity.length() - 2)) << 20;
        }
        throw new AssertionError("unexpected quantity " + quantity);
    }

    private static String cpus(String quantity) {
        return quantity.endsWith("m") ? String.valueOf(Integer.parseInt(quantity.substring(0, quantity.length() - 1)) / 1000.0) : quantity;
    }

    Duration firstHealthy() {
        return firstHealthy;
    }
}
