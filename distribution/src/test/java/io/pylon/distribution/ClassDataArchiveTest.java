package io.pylon.distribution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class ClassDataArchiveTest {
    @TempDir
    Path dir;

    @Test
    void archiveOlderThanAJarOfTheLibraryIsDropped() throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Path jar = touch(lib.resolve("a.jar"), 2_000);
        touch(lib.resolve("notes.txt"), 3_000);
        Path archive = touch(dir.resolve("pod.jsa"), 1_000);

        ClassDataArchive.dropIfStale(archive, lib + File.separator + "*");
        assertThat(archive).doesNotExist();

        touch(archive, 2_500);
        ClassDataArchive.dropIfStale(archive, lib + File.separator + "*");
        assertThat(archive).as("newer than every jar (other files do not count)").exists();

        touch(jar, 4_000);
        ClassDataArchive.dropIfStale(archive, dir.resolve("elsewhere.jar") + File.pathSeparator + jar);
        assertThat(archive).as("a plain class path entry counts too").doesNotExist();
    }

    @Test
    void missingArchiveIsNothingToDo() throws Exception {
        ClassDataArchive.dropIfStale(dir.resolve("none.jsa"), dir + File.separator + "*");
        assertThat(dir.resolve("none.jsa")).doesNotExist();
    }

    private static Path touch(Path file, long secondsAfterEpoch) throws Exception {
        if (!Files.exists(file)) {
            Files.createFile(file);
        }
        Files.setLastModifiedTime(file, FileTime.from(Instant.ofEpochSecond(1_700_000_000L + secondsAfterEpoch)));
        return file;
    }
}
