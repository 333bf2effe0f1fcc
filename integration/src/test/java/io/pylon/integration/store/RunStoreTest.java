package io.pylon.integration.store;

import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** History on a real H2 file: outputs cut to the bound with their size, keyset pages, pruning by age and by count. */
class RunStoreTest {
    private Path dir;
    private IntegrationDatabase database;
    private RunStore runs;
    private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

    @BeforeEach
    void open() throws Exception {
        dir = Files.createTempDirectory("pylon-runstore");
        database = IntegrationDatabase.open(IntegrationDatabase.h2Url(dir), "pylon", "", 2, null);
        runs = new RunStore(database.dataSource(), 100);
    }

    @AfterEach
    void close() {
        database.close();
        TestPods.deleteTree(dir);
    }

    private RunRecord finishedRun(String id, String flow, Instant at) {
        RunRecord run = runs.start(id, flow, "schedule", at, null, "pod-0", at);
        runs.addStep(run.seq(), flow, "a", "transform", "steps", 1, "succeeded", at, at, null, "\"" + "x".repeat(300) + "\"", null);
        runs.addStep(run.seq(), flow, "b", "http", "steps", 1, "failed", at, at, 503, null, "down");
        runs.finish(id, "succeeded", null, at);
        return run;
    }

    @Test
    void outputsAreCutToTheBoundWithTheirSizeKept() {
        RunRecord run = finishedRun("r1", "f", t0);
        List<StepRecord> steps = runs.steps(run.seq(), null, 10);
        assertThat(steps).hasSize(2);
        assertThat(steps.get(0).output()).hasSize(100);
        assertThat(steps.get(0).truncated()).isTrue();
        assertThat(steps.get(0).outputBytes()).isEqualTo(302);
        assertThat(steps.get(1).httpStatus()).isEqualTo(503);
        assertThat(steps.get(1).truncated()).isFalse();
        assertThat(runs.steps(run.seq(), steps.get(0).seq(), 10)).extracting(StepRecord::stepId).containsExactly("b");
    }

    @Test
    void aRestartedRunCountsItsAttemptsAndKeepsItsFirstStart() {
        runs.start("r1", "f", "schedule", t0, null, "pod-0", t0);
        RunRecord again = runs.start("r1", "f", "schedule", t0, null, "pod-1", t0.plusSeconds(30));
        assertThat(again.attempts()).isEqualTo(2);
        assertThat(again.pod()).isEqualTo("pod-1");
        assertThat(again.startedAt()).isEqualTo(t0);
    }

    @Test
    void pagesAreKeysetPagesNewestFirst() {
        for (int i = 0; i < 7; i++) {
            finishedRun("r" + i, i % 2 == 0 ? "even" : "odd", t0.plusSeconds(i));
        }
        List<RunRecord> first = runs.runs("even", null, 2);
        assertThat(first).extracting(RunRecord::id).containsExactly("r6", "r4");
        assertThat(runs.runs("even", first.get(1).seq(), 2)).extracting(RunRecord::id).containsExactly("r2", "r0");
    }

    @Test
    void pruningDeletesOldRunsAndRunsBeyondTheCountWithTheirStepsButNotOpenOnes() {
        for (int i = 0; i < 10; i++) {
            finishedRun("old" + i, "f", t0.plusSeconds(i));
        }
        for (int i = 0; i < 10; i++) {
            finishedRun("new" + i, "f", t0.plusSeconds(1000 + i));
        }
        runs.start("open", "f", "schedule", t0, null, "pod-0", t0);
        // by age: the ten old ones (batches of 3); by count: of the rest, the newest 4 stay
        int deleted = runs.prune(t0.plusSeconds(500), 4, 3);
        assertThat(deleted).isEqualTo(16);
        List<RunRecord> left = runs.runs("f", null, 100);
        assertThat(left).extracting(RunRecord::id).containsExactly("open", "new9", "new8", "new7", "new6");
        assertThat(runs.find("old3")).isNull();
        long steps = new Sql(database.dataSource()).one("SELECT COUNT(*) FROM integration_step", rs -> rs.getLong(1));
        assertThat(steps).isEqualTo(8);
    }
}
