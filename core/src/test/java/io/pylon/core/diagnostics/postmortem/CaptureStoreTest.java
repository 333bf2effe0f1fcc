package io.pylon.core.diagnostics.postmortem;

import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CaptureStoreTest {
    private Path dir;

    @AfterEach
    void clean() {
        TestPods.deleteTree(dir);
    }

    @Test
    void keepsTheNewestUpToTheCountAndLeavesNoTemporaryFile() throws Exception {
        dir = Files.createTempDirectory("pylon-captures");
        CaptureStore store = new CaptureStore(dir, 3);
        Instant t = Instant.parse("2026-11-23T08:00:00Z");
        for (int i = 0; i < 5; i++) {
            store.save(CaptureId.next(t.plusSeconds(i), Trigger.DEADLOCK), new byte[]{(byte) i});
        }
        List<CaptureInfo> listed = store.list();
        assertThat(listed).extracting(CaptureInfo::time)
                .containsExactly("2026-11-23T08:00:04Z", "2026-11-23T08:00:03Z", "2026-11-23T08:00:02Z");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).hasSize(3).allMatch(n -> n.endsWith(".json.gz"));
        }
        CaptureId newest = CaptureId.parse(listed.getFirst().id()).orElseThrow();
        assertThat(store.read(newest)).hasValueSatisfying(b -> assertThat(b).containsExactly(4));
    }

    @Test
    void idsAreStrict() {
        CaptureId id = CaptureId.next(Instant.parse("2026-11-23T08:15:02.123456Z"), Trigger.LIVENESS_DOWN);
        assertThat(id.text()).matches("20261123T081502123Z-liveness-down-[0-9a-f]{4}");
        assertThat(CaptureId.parse(id.text())).hasValue(id);
        for (String bad : new String[]{"", "../x", "20261123T081502123Z-liveness-down-3fa9/..",
                "20261123T081502123Z-unknown-3fa9", "20261123T081502123Z-deadlock-3fa", "20261123T251502123Z-deadlock-3fa9",
                " 20261123T081502123Z-deadlock-3fa9", "20261123T081502123Z-deadlock-3fa9\n", "x".repeat(100)}) {
            assertThat(CaptureId.parse(bad)).as(bad).isEmpty();
        }
    }
}
