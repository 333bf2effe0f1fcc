package io.pylon.distribution;

import java.time.Duration;

/**
 * Run in a JVM whose virtual-thread scheduler has one carrier and no spare: `pylon up`'s copying of a silent pod's
 * output must leave that carrier free. Exits 0 when a virtual thread still runs, 1 when none can.
 */
final class PipeStarvationCheck {
    private PipeStarvationCheck() {
    }

    public static void main(String[] args) throws Exception {
        Process silent = new ProcessBuilder("sleep", "30").start();
        try {
            new UpCommand().pipe(silent.getInputStream(), "silent | ", "silent", new java.util.concurrent.CompletableFuture<>());
            Thread.sleep(200);
            Thread probe = Thread.ofVirtual().start(() -> { });
            System.exit(probe.join(Duration.ofSeconds(5)) ? 0 : 1);
        } finally {
            silent.destroyForcibly();
        }
    }
}
