package io.pylon.distribution;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class UnknownSettingsTest {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern VARIABLE = Pattern.compile("PYLON_[A-Z0-9_]*[A-Z0-9](?![A-Z0-9_])");

    private final UnknownSettings all = UnknownSettings.ofAllModules();

    @Test
    void aMisspelledVariableIsNamedWithTheSettingItWasMeantToBe() {
        assertThat(all.warnings(Map.of("PYLON_WORKER_ROUTES_FIL", "/etc/routes.yaml"), Map.of())).containsExactly(
                "environment variable PYLON_WORKER_ROUTES_FIL is not a Pylon setting and is ignored; "
                        + "did you mean PYLON_WORKER_ROUTES_FILE?");
        assertThat(all.warnings(Map.of(), Map.of("pylon.sever.port", "9000"))).containsExactly(
                "system property pylon.sever.port is not a Pylon setting and is ignored; did you mean pylon.server.port?");
    }

    @Test
    void aNameFarFromEverySettingIsReportedWithoutAGuessAndItsValueNever() {
        assertThat(all.warnings(Map.of("PYLON_FROBNICATE_EVERYTHING", "s3cr3t-value"), Map.of()))
                .containsExactly("environment variable PYLON_FROBNICATE_EVERYTHING is not a Pylon setting and is ignored")
                .noneMatch(line -> line.contains("s3cr3t"));
    }

    @Test
    void settingsOfEveryModuleLauncherVariablesAndServiceLinksAreKnown() {
        Map<String, String> environment = Map.of(
                "PYLON_SERVER_PORT", "8091",                     // a pod-level setting
                "PYLON_INTEGRATION_DB_URL", "jdbc:h2:mem:x",     // another module's, from a shared ConfigMap
                "PYLON_POD_JVM_OPTS", "-Xss512k",                // the launcher's
                "PYLON_MANAGER_SERVICE_HOST", "10.0.0.1",        // Kubernetes service links of Service pylon-manager
                "PYLON_MANAGER_PORT_8090_TCP_ADDR", "10.0.0.1",
                "PYLON_MANAGER_PORT", "tcp://10.0.0.1:8090",
                "HOME", "/home/pylon",                           // not ours
                "pylon_lowercase", "x");
        assertThat(all.warnings(environment, Map.of("pylon.config.file", "/etc/pylon.properties", "java.home", "/jdk")))
                .isEmpty();
        assertThat(UnknownSettings.warningsFor(Modules.named("worker"), environment, Map.of())).isEmpty();
        assertThat(UnknownSettings.warningsFor(Modules.named("worker"), Map.of("PYLON_WORKR_ROUTES_FILE", "x"), Map.of()))
                .containsExactly("environment variable PYLON_WORKR_ROUTES_FILE is not a Pylon setting and is ignored; "
                        + "did you mean PYLON_WORKER_ROUTES_FILE?");
    }

    /** The launcher, the image, the manifests and the docs use no name a pod would warn about. */
    @Test
    void everyVariableTheRepositoryMentionsIsKnown() throws IOException {
        TreeSet<String> unknown = new TreeSet<>();
        for (Path file : filesToRead()) {
            Matcher names = VARIABLE.matcher(Files.readString(file, StandardCharsets.UTF_8));
            while (names.find()) {
                String name = names.group();
                if (!all.isKnownVariable(name) && !name.startsWith("PYLON_TEST_")) {
                    unknown.add(name + " (" + REPO.relativize(file) + ")");
                }
            }
        }
        assertThat(unknown).isEmpty();
    }

    @Test
    void aPodStartedWithAMisspelledSettingSaysSoAndStillStarts(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder = new ProcessBuilder(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), PylonCli.class.getName(),
                "run", "portal", "--pod-name", "portal-misspelled", "--bind", "127.0.0.1", "--port", "0")
                .redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("PYLON_"));
        builder.environment().put("PYLON_DATA_DIR", dir.toString());
        builder.environment().put("PYLON_PORTAL_MANAGR_URL", "http://misspelled.invalid:1");
        builder.environment().put("PYLON_PARENT_PID", String.valueOf(ProcessHandle.current().pid()));
        Process process = builder.start();
        StringBuilder output = new StringBuilder();
        try (var reader = process.inputReader(StandardCharsets.UTF_8)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            String line;
            while (System.nanoTime() < deadline && (line = reader.readLine()) != null) {
                output.append(line).append('\n');
                if (line.contains("listening on")) {
                    break;
                }
            }
        } finally {
            process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
        assertThat(output.toString())
                .contains("pylon: warning: environment variable PYLON_PORTAL_MANAGR_URL is not a Pylon setting and is "
                        + "ignored; did you mean PYLON_PORTAL_MANAGER_URL?")
                .contains("listening on")
                .doesNotContain("misspelled.invalid");
    }

    private static List<Path> filesToRead() throws IOException {
        List<Path> files = new ArrayList<>(List.of(REPO.resolve("pylon"), REPO.resolve("README.md")));
        for (String dir : List.of("scripts", "deploy", "docs", ".ci")) {
            try (var walk = Files.walk(REPO.resolve(dir))) {
                walk.filter(Files::isRegularFile).filter(f -> !f.toString().contains("/tests/")).forEach(files::add);
            }
        }
        return files;
    }
}
