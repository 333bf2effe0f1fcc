package io.pylon.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The folder of etcd, kube-apiserver and kubectl, from scripts/k8s/apiserver.sh: it builds the API server once per
 * machine into ~/.cache/pylon/k8s (minutes) and afterwards only checks it. A missing tool fails the test with the
 * script's message naming it. Threading: the first caller runs the script; the answer is then shared.
 */
final class DeployTools {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static Path bin;

    private DeployTools() {
    }

    static synchronized Path bin() {
        if (bin == null) {
            // a cold build takes minutes (CI's .ci/run builds it before the tests); a cached one, a second
            String out = Command.run(Map.of(), 3600, List.of("bash", ROOT.resolve("scripts/k8s/apiserver.sh").toString())).ok().strip();
            Path dir = Path.of(out.lines().reduce((first, last) -> last).orElse(""));
            for (String tool : new String[] {"etcd", "kube-apiserver", "kubectl"}) {
                if (!Files.isExecutable(dir.resolve(tool))) {
                    throw new AssertionError(tool + " missing in " + dir + " after scripts/k8s/apiserver.sh");
                }
            }
            bin = dir;
        }
        return bin;
    }

    static String tool(String name) {
        return bin().resolve(name).toString();
    }

    /** kubectl for rendering manifests only (kustomize), which needs no API server: the one on PATH. */
    static String kubectl() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, "kubectl"))) {
                return Path.of(dir, "kubectl").toString();
            }
        }
        throw new AssertionError("kubectl is missing on PATH (apt-get install kubernetes-client, or any kubectl >= 1.21)");
    }
}
