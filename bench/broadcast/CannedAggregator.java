import io.pylon.core.config.Settings;
import io.pylon.core.server.Pod;
import io.pylon.core.server.PodServer;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The aggregating pods of the canned-peer benchmark (canned.sh): `java -cp <classes>:<core classpath> CannedAggregator
 * <bind> <firstPort> <peerPrefix> <peerPort> <peers>...` starts one real diagnostics pod per peer count on bind:firstPort,
 * firstPort+1..., named agg-<count>, whose static discovery lists itself and that many peers at
 * http://<peerPrefix>.<10+i>:<peerPort> (nginx answering a canned `jvm` body). Prints READY, runs until killed.
 */
public final class CannedAggregator {
    private static final String AUTH = "0123456789abcdef01234567";

    public static void main(String[] args) throws Exception {
        String bind = args[0];
        int port = Integer.parseInt(args[1]);
        String peerPrefix = args[2];
        int peerPort = Integer.parseInt(args[3]);
        List<Pod> pods = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            int peers = Integer.parseInt(args[i]);
            String name = "agg-" + peers;
            List<String> list = new ArrayList<>();
            for (int p = 0; p < peers; p++) {
                list.add(String.format(Locale.ROOT, "peer-%02d=http://%s.%d:%d", p, peerPrefix, 10 + p, peerPort));
            }
            Map<String, String> settings = new HashMap<>(Map.of(
                    "pylon.server.bind", bind,
                    "pylon.server.port", String.valueOf(port++),
                    "pylon.pod.name", name,
                    "pylon.environment.id", AUTH,
                    "pylon.broadcast.max-in-flight", "64",
                    "pylon.data.dir", Files.createTempDirectory("pylon-bench-" + name).toString()));
            settings.put("pylon.discovery.static", String.join(",", list));
            pods.add(PodServer.start(new BenchModule(), Settings.of(settings)));
        }
        System.out.println("READY " + ProcessHandle.current().pid());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> pods.forEach(Pod::stop)));
        new CountDownLatch(1).await();
    }
}
