package io.pylon.distribution.e2e;

import io.pylon.distribution.PylonCli;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interactive commands in a real terminal (tmux): the password prompt of {@code login}, {@code top} refreshing,
 * re-sorting on key presses and giving the terminal back, and the heap dump's progress bar and its Ctrl-C. The CLI
 * runs as its own JVM process, started by bash in the tmux window.
 */
class CliTerminalTest {
    private static final Duration START = Duration.ofSeconds(90);

    @TempDir
    static Path dir;

    static LoopbackPlatform platform;
    static TmuxSession tmux;

    @BeforeAll
    static void terminal() throws Exception {
        platform = CliPlatform.shared();
        String java = ProcessHandle.current().info().command().orElse("java");
        Path script = dir.resolve("pylon");
        Files.writeString(script, "#!/bin/sh\nexec '" + java + "' -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp '"
                + System.getProperty("java.class.path") + "' " + PylonCli.class.getName() + " \"$@\"\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        tmux = new TmuxSession(dir, 160, 40);
        tmux.run("export PYLON_CONFIG=" + dir.resolve("config"));
        tmux.run("./pylon login " + platform.managerUrl() + " --username admin --env e2e; echo EXIT=$?");
        String prompt = tmux.waitFor("Password for admin at " + platform.managerUrl() + ":", START);
        assertThat(prompt).doesNotContain("Logged in");
        tmux.type(LoopbackPlatform.ADMIN_PASSWORD);
        tmux.press("Enter");
        String screen = tmux.waitForExit(START);
        assertThat(screen).contains("Logged in to " + platform.managerUrl() + " as admin").contains("EXIT=0")
                .doesNotContain(LoopbackPlatform.ADMIN_PASSWORD);
        tmux.run("clear");
    }

    @AfterAll
    static void closeTerminal() {
        if (tmux != null) {
            tmux.close();
        }
    }

    @Test
    void loginPromptsWithoutEchoAndAWrongPasswordIsExit3() throws Exception {
        tmux.run("clear; ./pylon login " + platform.managerUrl() + " --username admin --name other; echo EXIT=$?");
        tmux.waitFor("Password for admin", START);
        tmux.type("wrong-password-typed-here");
        tmux.press("Enter");
        String screen = tmux.waitForExit(START);
        assertThat(screen).contains("refused the username or password").contains("EXIT=3").doesNotContain("wrong-password-typed-here");
        tmux.run("clear");
    }

    @Test
    void topRefreshesSortsOnKeysAndRestoresTheTerminal() throws Exception {
        tmux.run("clear; echo BEFORE-TOP; ./pylon top --interval 1s; echo EXIT=$?");
        String first = tmux.waitFor("the four pods", s -> s.contains("pylon top - e2e") && s.contains("worker-1")
                && s.contains("cache-1"), START);
        assertThat(first).contains("sorted by name").contains("POD").contains("HEAP%").contains("FLAGS")
                .doesNotContain("BEFORE-TOP");
        assertThat(podOrder(first)).containsExactly("cache-0", "cache-1", "worker-0", "worker-1");
        String updated = updatedAt(first);
        tmux.waitFor("a refresh", s -> !updatedAt(s).equals(updated), Duration.ofSeconds(30));

        tmux.type("h");
        String byHeap = tmux.waitFor("sorted by heap", Duration.ofSeconds(10));
        List<Double> heap = column(byHeap, 1);
        assertThat(heap).hasSize(4);
        assertThat(heap).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        tmux.type("t");
        String byThreads = tmux.waitFor("sorted by threads", Duration.ofSeconds(10));
        assertThat(column(byThreads, 4)).isSortedAccordingTo((a, b) -> Double.compare(b, a));

        tmux.type("q");
        String after = tmux.waitForExit(Duration.ofSeconds(20));
        assertThat(after).contains("BEFORE-TOP").contains("EXIT=0").doesNotContain("pylon top - e2e");
        assertTerminalRestored();

        // Ctrl-C quits as cleanly as q
        tmux.run("clear; ./pylon top; echo EXIT=$?");
        tmux.waitFor("worker-0", START);
        tmux.press("C-c");
        assertThat(tmux.waitForExit(Duration.ofSeconds(20))).contains("EXIT=0").doesNotContain("pylon top - e2e");
        assertTerminalRestored();
    }

    @Test
    void topFitsEightyColumnsAndANarrowerWindowCutsLinesInsteadOfWrapping() throws Exception {
        tmux.clear();
        try {
            for (int width : List.of(80, 70)) {
                tmux.resize(width, 40);
                tmux.clear();
                tmux.run("./pylon top --interval 1s; echo EXIT=$?");
                tmux.waitFor("the four pods", s -> s.contains("worker-1") && s.contains("cache-1"), START);
                String joined = tmux.joinedScreen();
                assertThat(joined.lines()).as("no line wrapped at %d columns:%n%s", width, joined)
                        .allMatch(line -> line.length() <= width);
                if (width == 80) {
                    assertThat(joined).contains("sorted by name").containsPattern("POD +HEAP% +HEAP +CPU +THREADS +BLOCKED +CONNS +PENDING +FLAGS")
                            .containsPattern("(?m)^worker-0 .* ok$");
                }
                tmux.type("q");
                assertThat(tmux.waitForExit(Duration.ofSeconds(20))).contains("EXIT=0");
            }
        } finally {
            tmux.resize(160, 40);
            tmux.clear();
        }
    }

    @Test
    void collectRefusesToFloodATerminalAndShowsItsRoundsWhenWritingAFile() throws Exception {
        tmux.clear();
        tmux.run("./pylon collect; echo EXIT=$?");
        String refused = tmux.waitForExit(START);
        assertThat(refused).contains("give a file with -o FILE").contains("EXIT=2").doesNotContain("collectedAt");
        tmux.clear();
        tmux.run("./pylon collect --every 1s --rounds 2 -o fleet.jsonl; echo EXIT=$?");
        String written = tmux.waitForExit(Duration.ofMinutes(2));
        assertThat(written).contains("EXIT=0").containsPattern("round 1 of 2: 4 pod records, \\S+ appended to fleet.jsonl; next round at")
                .containsPattern("round 2 of 2: 4 pod records, \\S+ appended to fleet.jsonl\\s").doesNotContain("collectedAt");
        assertThat(Files.readAllLines(dir.resolve("fleet.jsonl"))).hasSize(8);
        tmux.clear();
    }

    @Test
    void auditHasAHeaderAlignedColumnsAndNoNulls() throws Exception {
        tmux.clear();
        tmux.run("./pylon audit --limit 8; echo EXIT=$?");
        String screen = tmux.waitForExit(START);
        assertThat(screen).contains("EXIT=0").doesNotContain("null");
        List<String> lines = screen.lines().toList();
        int header = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).matches("TIME +ACTOR +ACTION +TARGET +OUTCOME +SOURCE")) {
                header = i;
            }
        }
        assertThat(header).as("the header line:%n%s", screen).isNotNegative();
        String head = lines.get(header);
        List<String> rows = lines.subList(header + 1, lines.size()).stream().filter(l -> l.matches("\\d{4}-\\d\\d-\\d\\d .*")).toList();
        assertThat(rows).as(screen).hasSizeGreaterThanOrEqualTo(2);
        for (String column : List.of("ACTOR", "ACTION", "TARGET", "OUTCOME", "SOURCE")) {
            int at = head.indexOf(column);
            for (String row : rows) {
                assertThat(row.charAt(at - 1)).as("column %s of: %s", column, row).isEqualTo(' ');
                assertThat(row.charAt(at)).as("column %s of: %s", column, row).isNotEqualTo(' ');
            }
        }
        tmux.run("clear");
    }

    @Test
    void diagIsIndentedOnATerminalAndOneLineWhenPiped() throws Exception {
        tmux.clear();
        tmux.run("./pylon diag jvm worker --pod worker-0; echo EXIT=$?");
        tmux.waitForExit(START);
        String pretty = tmux.history();
        assertThat(pretty).contains("EXIT=0").containsPattern("(?m)^  \"podName\" : \"worker-0\",?$");
        tmux.clear();
        tmux.run("./pylon diag jvm worker --pod worker-0 | wc -l; echo EXIT=$?");
        String piped = tmux.waitForExit(START);
        assertThat(piped).containsPattern("(?m)^1$");
        tmux.clear();
    }

    @Test
    void heapDumpShowsAProgressBarAndCtrlCLeavesNoFile() throws Exception {
        tmux.run("clear; ./pylon dump heap worker-0 -o w0.hprof; echo EXIT=$?");
        String done = tmux.waitForExit(Duration.ofMinutes(3));
        assertThat(done).contains("EXIT=0").contains("Wrote the heap dump of worker-0 to w0.hprof")
                .containsPattern("\\[#{30}] 100% \\S+ / \\S+  \\S+/s  \\d\\d:\\d\\d");
        assertThat(Files.size(dir.resolve("w0.hprof"))).isGreaterThan(1_000_000);
        Files.delete(dir.resolve("w0.hprof"));

        // interrupted while the bar runs: neither the file nor its .part stays. Compressing makes the transfer slow
        // enough to be caught; a try that ends before the key arrives is repeated
        boolean interrupted = false;
        for (int attempt = 0; attempt < 4 && !interrupted; attempt++) {
            // the screen cleared first: a '%' or an EXIT=0 of the download before must not count for this one
            tmux.clear();
            tmux.run("./pylon dump heap cache-0 -o c0.hprof.gz; echo EXIT=$?");
            tmux.waitFor("the progress bar", s -> s.contains("%") || TmuxSession.exited(s), Duration.ofMinutes(3));
            tmux.press("C-c");
            String screen = tmux.waitFor("the prompt", s -> TmuxSession.exited(s) || s.strip().endsWith("$"), Duration.ofSeconds(30));
            interrupted = !screen.contains("EXIT=0");
            if (interrupted) {
                assertThat(dir.resolve("c0.hprof.gz")).doesNotExist();
                assertThat(dir.resolve("c0.hprof.gz.part")).doesNotExist();
            } else {
                Files.deleteIfExists(dir.resolve("c0.hprof.gz"));
            }
        }
        assertThat(interrupted).as("one download was interrupted by Ctrl-C").isTrue();
        tmux.run("clear");
    }

    private static void assertTerminalRestored() throws InterruptedException {
        tmux.run("clear; stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo MODES");
        // the typed command holds "MODES" too: wait for the output line, which does not hold "stty"
        String modes = tmux.waitFor("the terminal modes", s -> s.lines().anyMatch(l -> l.strip().endsWith("MODES")
                && !l.contains("stty")), Duration.ofSeconds(10));
        assertThat(modes).contains("icanon echo MODES").doesNotContain("-icanon").doesNotContain("-echo");
        tmux.run("clear");
    }

    private static String updatedAt(String screen) {
        Matcher m = Pattern.compile("updated (\\S+)").matcher(screen);
        return m.find() ? m.group(1) : "";
    }

    private static List<String> podOrder(String screen) {
        List<String> pods = new ArrayList<>();
        for (String line : screen.lines().toList()) {
            Matcher m = Pattern.compile("^((?:worker|cache)-\\d)\\s").matcher(line);
            if (m.find()) {
                pods.add(m.group(1));
            }
        }
        return pods;
    }

    /** The numbers of column {@code index} (0-based, split on runs of spaces) of the pod rows; '%' dropped. */
    private static List<Double> column(String screen, int index) {
        List<Double> values = new ArrayList<>();
        for (String line : screen.lines().toList()) {
            if (line.matches("^(worker|cache)-\\d\\s.*")) {
                values.add(Double.parseDouble(line.split("\\s+")[index].replace("%", "")));
            }
        }
        return values;
    }
}
