package io.pylon.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The folder of etcd, kube-apiserver and kubectl, from scripts/k8s/apiserver.sh: it builds the API server once per
 * machine into ~/.cache/pylon/k8s (minutes) and afterwards only checks it; while CI's background preparation
 * (scripts/deploy-tools.sh) is still building, the script waits for it. A missing tool fails the test with the
 * script's message naming it. Threading: the first caller runs the script; the answer is then shared.
 */
final class DeployTools {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** A cold build took about 8 minutes on two idle cores; the rest is for a loaded machine. */
    private static final long BUILD_PATIENCE_SECONDS = 3600;

    private static Path bin;

    private DeployTools() {
    }

    static synchronized Path bin() {
        if (bin == null) {
            String out;
            try {
                out = Command.run(Map.of(), BUILD_PATIENCE_SECONDS, List.of("bash", ROOT.resolve("scripts/k8s/apiserver.sh").toString()))
                        .ok().strip();
            } catch (Command.TimedOut e) {
                throw new AssertionError("the Kubernetes API server was not ready within " + BUILD_PATIENCE_SECONDS
                        + " s: scripts/k8s/apiserver.sh (or CI's preparation it waited for) was still building; its log is"
                        + " build.log in ~/.cache/pylon/k8s (or $PYLON_CACHE/k8s)", e);
            }
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

    /** etcd, kube-apiserver or kubectl (a pinned release, whatever the machine has on its PATH). */
    static String tool(String name) {
        return bin().resolve(name).toString();
    }
}
