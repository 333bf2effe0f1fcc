package io.pylon.distribution.e2e;

import java.util.Map;

/**
 * Benchmark (not a test): time from clicking "Sign in" to a fully rendered Server Management screen in headless
 * Chromium, for a platform of the given numbers of Worker and Cache pods on loopback in this JVM. Run by
 * bench/ui/run.sh; prints one {@code BENCH {...}} JSON line per platform size.
 * Arguments: workers caches [runs].
 */
public final class UiBenchmark {
    private UiBenchmark() {
    }

    public static void main(String[] args) {
        int workers = Integer.parseInt(args[0]);
        int caches = Integer.parseInt(args[1]);
        String runs = args.length > 2 ? args[2] : "7";
        String missing = BrowserScript.missingTools();
        if (missing != null) {
            System.err.println(missing);
            System.exit(2);
        }
        BrowserScript.installOnce();
        long t0 = System.nanoTime();
        int exit;
        try (LoopbackPlatform platform = new LoopbackPlatform(workers, caches, true)) {
            System.out.printf("platform of %d pods started in %d ms%n", workers + caches, (System.nanoTime() - t0) / 1_000_000);
            BrowserScript.Result result = BrowserScript.phase("bench", Map.of(
                    "PYLON_URL", platform.managerUrl(),
                    "PYLON_ENVIRONMENT", LoopbackPlatform.ENVIRONMENT,
                    "ADMIN_USER", "admin",
                    "ADMIN_PASSWORD", LoopbackPlatform.ADMIN_PASSWORD,
                    "EXPECT_WORKERS", String.valueOf(workers),
                    "EXPECT_CACHES", String.valueOf(caches),
                    "BENCH_RUNS", runs));
            result.output().lines().filter(line -> line.startsWith("BENCH") || line.contains("FAILED"))
                    .forEach(System.out::println);
            exit = result.exitCode();
        }
        System.exit(exit);
    }
}
