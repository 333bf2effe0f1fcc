package io.pylon.distribution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./pylon mvn}: Maven with the JDK the launcher finds, when the {@code java} on PATH is a JDK 17 (with which
 * the build stops at "release version 21 not supported"). The JDK 17 here is a stand-in that only tells its version.
 */
class LauncherMavenTest {
    @TempDir
    Path dir;

    @Test
    void mavenRunsOnAJdkOf21OrNewerWhenPathHasJdk17() throws Exception {
        Path home = Files.createDirectories(dir.resolve("jdk-17"));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"17.0.2\"\n");
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"17.0.2\" 2022-01-18' >&2\nexit 1\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));

        ProcessBuilder builder = new ProcessBuilder("bash", Path.of("..", "pylon").toAbsolutePath().normalize().toString(),
                "mvn", "-B", "-o", "--version").redirectErrorStream(true);
        builder.environment().remove("JAVA_HOME");
        builder.environment().put("PATH", home.resolve("bin") + ":/usr/bin:/bin");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).containsPattern("Java version: (2[1-9]|[3-9]\\d)").doesNotContain("17.0.2");
    }
}
