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

/**
 * History on a real H2 file (and on PostgreSQL, {@link RunStorePostgresTest}): outputs cut to the bound with their
 * size, keyset pages, the newest run of many flows at once, pruning by age and by count.
 */
class RunStoreTest {
    private Path dir;
    private IntegrationDatabase database;
    private RunStore runs;
    private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

    @BeforeEach
    void open() throws Exception {
        dir = Files.createTempDirectory("pylon-runstore");
        database = openDatabase(dir);
        runs = new RunStore(database.dataSource(), 100);
    }

    IntegrationDatabase openDatabase(Path dir) throws Exception {
        return IntegrationDatabase.open(IntegrationDatabase.h2Url(dir), "pylon", "", 2, null);
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

    @Test
    void pruningByCountKeepsTheNewestFinishedRunsOfEveryFlowAndLeavesOtherFlowsAlone() {
        for (int i = 0; i < 6; i++) {
            finishedRun("a" + i, "flow-a", t0.plusSeconds(i));
            finishedRun("b" + i, "flow-b", t0.plusSeconds(i));
        }
        finishedRun("c0", "flow-c", t0);
        runs.start("a-open", "flow-a", "schedule", t0, null, "pod-0", t0);
        finishedRun("a6", "flow-a", t0.plusSeconds(6));

        assertThat(runs.prune(t0.minusSeconds(1), 2, 1000)).isEqualTo(9);
        assertThat(runs.runs("flow-a", null, 100)).extracting(RunRecord::id).containsExactly("a6", "a-open", "a5");
        assertThat(runs.runs("flow-b", null, 100)).extracting(RunRecord::id).containsExactly("b5", "b4");
        assertThat(runs.runs("flow-c", null, 100)).extracting(RunRecord::id).containsExactly("c0");
        assertThat(runs.openRuns()).isEqualTo(1);
        assertThat(runs.prune(t0.minusSeconds(1), 2, 1000)).isZero();
    }

    @Test
    void theNewestRunOfManyFlowsComesInOneAnswerAndFlowsWithoutRunsAreAbsent() {
        FlowStore flows = new FlowStore(database.dataSource());
        for (String name : List.of("one", "two", "idle")) {
            flows.create(name, "name: " + name + "\nsteps: [{delay: 1s}]\n", null, t0);
        }
        finishedRun("one-1", "one", t0);
        finishedRun("two-1", "two", t0.plusSeconds(1));
        finishedRun("one-2", "one", t0.plusSeconds(2));
        runs.start("two-2", "two", "manual", t0.plusSeconds(3), "{\"x\": 1}", "pod-0", t0.plusSeconds(3));
        finishedRun("gone-1", "gone", t0.plusSeconds(4));

        java.util.Map<String, RunRecord> latest = runs.latest(List.of("one", "two", "idle"));
        assertThat(latest).containsOnlyKeys("one", "two");
        assertThat(latest.get("one").id()).isEqualTo("one-2");
        assertThat(latest.get("two").id()).isEqualTo("two-2");
        assertThat(latest.get("two").status()).isEqualTo("running");
        assertThat(latest.get("two").input()).isNull();
        assertThat(latest.get("two")).usingRecursiveComparison().ignoringFields("input").isEqualTo(runs.latest("two"));
        assertThat(runs.latest(List.of())).isEmpty();
    }
}
