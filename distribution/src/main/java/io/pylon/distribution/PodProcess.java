package io.pylon.distribution;

import io.pylon.core.diagnostics.compare.CompareSettings;
import io.pylon.core.http.PodPaths;
import io.pylon.core.pod.CoreSettings;
import io.pylon.integration.IntegrationSettings;
import io.pylon.integration.store.IntegrationDatabase;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Starts one pod of the local platform as a child JVM running {@code pylon run}. */
final class PodProcess {
    /**
     * JVM options of every local pod but its collector, unless PYLON_POD_JAVA_OPTS says otherwise: a small initial
     * heap that is given back after collections keeps an idle pod small, and freed C heap goes back to the OS every 5 s;
     * {@link PodHeap} picks the collector and bounds the heap, and {@link StartupCache} adds the start-up cache
     * (BENCHMARKS.md, "Start-up and memory").
     */
    static final String BASE_JAVA_OPTS = "-Xms16m -Xss512k -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20"
            + " -XX:TrimNativeHeapInterval=5000";

    private static final String INTEGRATION_DB_URL = IntegrationSettings.DB_URL.envName();
    private static final String INTEGRATION_SECRETS_DIR = IntegrationSettings.SECRETS_DIR.envName();

    private PodProcess() {
    }

    /** A started pod; {@code recording}: it records its module's AOT cache, which its JVM writes when it stops. */
    record Started(Process process, boolean recording) {
    }

    static Started start(LocalPod pod, List<LocalPod> all, LocalEnvironment environment, PodPaths paths, Path stateDir) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(ownSession());
        command.add(java);
        String opts = System.getenv("PYLON_POD_JAVA_OPTS");
        String classPath = libraryClassPath();
        String quiet = QuietJvm.options(pod.module(), Runtime.version().feature());
        if (opts == null) {
            Path caches = Files.createDirectories(stateDir.resolve("cds").toAbsolutePath());
            String jvm = quiet + " " + jvmOptions(pod.module(), System.getenv());
            opts = jvm + " " + startupCacheOptions(caches, pod, all, classPath, jvm);
        } else {
            opts = quiet + " " + opts;
        }
        command.addAll(Arrays.stream(opts.split("\\s+")).filter(s -> !s.isBlank()).toList());
        command.add("-cp");
        command.add(classPath);
        command.add(PylonCli.class.getName());
        command.addAll(List.of("run", pod.module(), "--pod-name", pod.name(), "--bind", pod.host(), "--port", String.valueOf(pod.port())));

        Path dataDir = Files.createDirectories(stateDir.resolve("data").resolve(pod.name()).toAbsolutePath());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        env.put("PYLON_PARENT_PID", String.valueOf(ProcessHandle.current().pid()));
        env.put("PYLON_DATA_DIR", dataDir.toString());
        env.put("PYLON_ENVIRONMENT_NAME", environment.name());
        env.put("PYLON_ENVIRONMENT_ID", environment.id());
        // the segment `pylon up` waits on, even when it came from a system property the child would not see
        env.put("PYLON_PATH_SEGMENT", paths.segment());
        ignoreLocalDifferences(env);
        env.putAll(moduleEnvironment(pod, all, environment, stateDir.toAbsolutePath(), System.getenv()));
        return new Started(builder.start(), opts.contains("-XX:AOTCacheOutput="));
    }

    /**
     * {@code setsid}, where there is one (Linux): a pod in a session of its own does not get the terminal's Ctrl-C, so
     * {@code pylon up} stops the pods in its order (clients first) instead of all at once. A pod still ends when
     * {@code pylon up} does, even killed: it watches {@code PYLON_PARENT_PID}. setsid replaces itself with the JVM, so
     * the pid {@code pylon up} knows is the pod's.
     */
    /** Where the Integration pods of {@code pylon up} keep the database and secrets they share. */
    static Path sharedIntegrationDir(Path stateDir) {
        return stateDir.resolve("data").resolve("integration");
    }

    static List<String> ownSession() {
        for (String candidate : List.of("/usr/bin/setsid", "/bin/setsid")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return List.of(candidate);
            }
        }
        return List.of();
    }

    /**
     * Makes 'compare' leave out what differs between local pods by design: each has a data folder of its own, which
     * `pylon pods` right after `pylon up` showed as drift on every second pod. An operator's own list is kept.
     */
    static void ignoreLocalDifferences(Map<String, String> env) {
        List<String> names = new ArrayList<>(CompareSettings.IGNORE_ENV.defaultValue());
        names.add(CoreSettings.DATA_DIR.envName());
        env.putIfAbsent(CompareSettings.IGNORE_ENV.envName(), String.join(",", names));
    }

    /** A module's pod's JVM options but its start-up cache: collector, {@link #BASE_JAVA_OPTS}, heap bound. */
    static String jvmOptions(String module, Map<String, String> environment) {
        return PodHeap.collector(module) + " " + BASE_JAVA_OPTS + " " + PodHeap.options(module, environment);
    }

    /**
     * What one module's pods need to know of the others.
     *
     * @param operator the environment {@code pylon up} was started with: an Integration database or secrets folder
     *                 the operator set there is kept
     */
    static Map<String, String> moduleEnvironment(LocalPod pod, List<LocalPod> all, LocalEnvironment environment,
                                                 Path stateDir, Map<String, String> operator) {
        Map<String, String> env = new java.util.LinkedHashMap<>();
        switch (pod.module()) {
            case "worker", "cache" -> {
                env.put("PYLON_DISCOVERY_STATIC", peers(pod.module(), all));
                // the Cache pods form one data grid; Workers connect to it as clients
                if (pod.module().equals("cache")) {
                    env.put("PYLON_GRID_PORT", String.valueOf(pod.gridPort()));
                    env.put("PYLON_GRID_MEMBERS", gridMembers(all));
                    env.put("PYLON_GRID_EXPECTED_MEMBERS", String.valueOf(all.stream().filter(p -> p.module().equals("cache")).count()));
                } else {
                    env.put("PYLON_CACHE_ADDRESSES", gridMembers(all));
                    // the Workers follow the Manager: the sample API and every deployment reach them by long-poll
                    env.put("PYLON_WORKER_CONFIG_SOURCE", "manager");
                    env.put("PYLON_WORKER_MANAGER_URL", all.stream().filter(p -> p.module().equals("manager"))
                            .findFirst().map(LocalPod::url).orElseThrow());
                }
            }
            case "integration" -> {
                env.put("PYLON_DISCOVERY_STATIC", peers(pod.module(), all));
                // the Integration API checks management tokens against the Manager, wherever it bound
                all.stream().filter(p -> p.module().equals("manager")).findFirst()
                        .ifPresent(manager -> env.put("PYLON_INTEGRATION_MANAGER_URL", manager.url()));
                // the Integration pods share one database, its scheduler table with it, and one secrets folder
                Path shared = sharedIntegrationDir(stateDir);
                if (!operator.containsKey(INTEGRATION_DB_URL)) {
                    env.put(INTEGRATION_DB_URL, IntegrationDatabase.h2SharedUrl(shared));
                }
                if (!operator.containsKey(INTEGRATION_SECRETS_DIR)) {
                    env.put(INTEGRATION_SECRETS_DIR, shared.resolve("secrets").toString());
                }
            }
            case "manager" -> {
                // the Manager creates the admin and the local environment (with the ID its pods get) on first start
                env.put("PYLON_MANAGER_ADMIN_USERNAME", environment.adminUsername());
                env.put("PYLON_MANAGER_ADMIN_PASSWORD", environment.adminPassword());
                env.put("PYLON_MANAGER_BOOTSTRAP_ENVIRONMENT_TYPE", "local");
                env.put("PYLON_MANAGER_BOOTSTRAP_ENVIRONMENT_URLS", moduleUrls(all));
                // a copy of each deployed bundle in the data grid: Workers start from it while the Manager is down
                if (all.stream().anyMatch(p -> p.module().equals("cache"))) {
                    env.put("PYLON_CACHE_ADDRESSES", gridMembers(all));
                }
                // /apiops/flows forwards to an Integration pod that answers, wherever they bound
                String integrations = all.stream().filter(p -> p.module().equals("integration")).map(LocalPod::url)
                        .collect(Collectors.joining(","));
                if (!integrations.isEmpty()) {
                    env.put("PYLON_MANAGER_INTEGRATION_URL", integrations);
                }
            }
            case "portal" -> {
                // the Portal talks to the Manager with its own account, which pylon up creates (role portal)
                all.stream().filter(p -> p.module().equals("manager")).findFirst()
                        .ifPresent(manager -> env.put("PYLON_PORTAL_MANAGER_URL", manager.url()));
                env.put("PYLON_PORTAL_MANAGER_USERNAME", LocalEnvironment.PORTAL_ACCOUNT);
                env.put("PYLON_PORTAL_MANAGER_PASSWORD", environment.portalPassword());
            }
            default -> {
            }
        }
        return env;
    }

    /** {@code manager=http://127.0.0.1:8080,worker=http://127.0.0.4:8091,...}: the first pod of each module. */
    static String moduleUrls(List<LocalPod> all) {
        Map<String, String> urls = new java.util.LinkedHashMap<>();
        for (LocalPod pod : all) {
            urls.putIfAbsent(pod.module(), pod.url());
        }
        return urls.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    /** {@code 127.0.0.2:5701,127.0.0.3:5701}: the data grid members of the local Cache pods. */
    static String gridMembers(List<LocalPod> all) {
        return all.stream().filter(p -> p.module().equals("cache"))
                .map(LocalPod::gridAddress)
                .collect(Collectors.joining(","));
    }

    /**
     * The start-up cache of a pod; none when the class path is not one library folder (a build's classes). The pods of
     * a module run the same jars with the same options: on JDK 25 they share one AOT cache, which the module's first
     * pod records (seven pods writing theirs at once on Ctrl-C took longer than a stop may take, and left their
     * recordings behind); its other pods start without until it exists.
     */
    private static String startupCacheOptions(Path dir, LocalPod pod, List<LocalPod> all, String classPath, String jvm)
            throws IOException {
        if (!classPath.endsWith("*") || classPath.contains(java.io.File.pathSeparator)) {
            Path archive = dir.resolve(pod.name() + ".jsa");
            ClassDataArchive.dropIfStale(archive, classPath);
            return "-XX:+AutoCreateSharedArchive -XX:SharedArchiveFile=" + archive + " -Xlog:cds*=off";
        }
        Path lib = Path.of(classPath.substring(0, classPath.length() - 1));
        StartupCache.dropIfUnusable(dir, pod.module(), lib, Runtime.version().feature(), jvm,
                ProcessHandle.current().info().command().orElse("java"));
        boolean recorder = all.stream().filter(p -> p.module().equals(pod.module())).findFirst().orElseThrow().equals(pod);
        return StartupCache.options(dir, pod.module(), lib, Runtime.version().feature(), jvm, recorder);
    }

    /** {@code <lib>/*} when running from the distribution's lib folder (short command lines), else this JVM's class path. */
    static String libraryClassPath() {
        try {
            Path jar = Path.of(PylonCli.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path lib = jar.getParent();
            if (Files.isRegularFile(jar) && lib != null) {
                return lib.resolve("*").toString();
            }
        } catch (java.net.URISyntaxException | SecurityException e) {
            // fall through to the JVM's own class path
        }
        return System.getProperty("java.class.path");
    }

    /** {@code worker-0=http://127.0.0.4:8091,worker-1=http://127.0.0.5:8091}: the pods of the same module. */
    static String peers(String module, List<LocalPod> all) {
        return all.stream().filter(p -> p.module().equals(module))
                .map(p -> p.name() + "=" + p.url())
                .collect(Collectors.joining(","));
    }
}
