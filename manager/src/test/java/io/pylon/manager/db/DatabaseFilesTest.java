package io.pylon.manager.db;

import io.pylon.core.server.Pod;
import io.pylon.core.testing.TestPods;
import io.pylon.manager.ManagerClient;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The embedded database of a real Manager pod holds hashes and environment IDs: its files are owner-only. */
class DatabaseFilesTest {

    @Test
    void theH2FilesAreReadableByTheOwnerAlone() throws Exception {
        Path data = Files.createTempDirectory("pylon-manager-files");
        Pod pod = ManagerClient.start("manager-files", Map.of("pylon.data.dir", data.toString()));
        try {
            ManagerClient manager = new ManagerClient(pod);
            assertThat(manager.postJson("/apiops/tokens", manager.adminToken(), "{\"name\":\"written\"}").statusCode())
                    .isEqualTo(201);
            try (Stream<Path> files = Files.list(data)) {
                java.util.List<Path> database = files.filter(f -> f.getFileName().toString().startsWith("manager.")).toList();
                assertThat(database).extracting(f -> f.getFileName().toString()).contains("manager.mv.db");
                for (Path file : database) {
                    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).as(file.toString())
                            .isEqualTo("rw-------");
                }
            }
        } finally {
            pod.stop();
            TestPods.deleteTree(data);
        }
    }
}
