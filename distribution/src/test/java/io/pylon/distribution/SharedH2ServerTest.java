package io.pylon.distribution;

import io.pylon.integration.store.IntegrationDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Finding the process that serves a shared H2 database, from a real database opened in automatic mixed mode. */
class SharedH2ServerTest {

    @TempDir
    Path dir;

    @Test
    void theProcessThatOpenedTheDatabaseFirstServesIt() throws Exception {
        long self = ProcessHandle.current().pid();
        Process other = new ProcessBuilder("sleep", "30").start();
        try (Connection connection = DriverManager.getConnection(IntegrationDatabase.h2SharedUrl(dir))) {
            Path lock = IntegrationDatabase.h2SharedLockFile(dir);

            assertThat(SharedH2Server.serverPort(lock)).isPositive();
            assertThat(SharedH2Server.ofThisMachine().servingPid(lock, List.of(other.pid(), self)))
                    .isEqualTo(OptionalLong.of(self));
            assertThat(SharedH2Server.ofThisMachine().servingPid(lock, List.of(other.pid())))
                    .as("none of those given holds the port").isEmpty();
        } finally {
            other.destroyForcibly();
        }
    }

    @Test
    void noLockFileOrOneWithoutAServerNamesNoProcess() throws Exception {
        long self = ProcessHandle.current().pid();
        Path lock = dir.resolve("integration.lock.db");

        assertThat(SharedH2Server.ofThisMachine().servingPid(lock, List.of(self))).isEmpty();
        Files.writeString(lock, "#FileLock\nid=1\nmethod=file\n");
        assertThat(SharedH2Server.ofThisMachine().servingPid(lock, List.of(self))).isEmpty();
        Files.writeString(lock, "server=127.0.0.6\\:notaport\n");
        assertThat(SharedH2Server.serverPort(lock)).isZero();
        Files.writeString(lock, "server=127.0.0.6\\:70000\n");
        assertThat(SharedH2Server.serverPort(lock)).isZero();
    }

    @Test
    void withoutProcNoProcessIsNamed() throws Exception {
        try (Connection connection = DriverManager.getConnection(IntegrationDatabase.h2SharedUrl(dir))) {
            assertThat(new SharedH2Server(dir.resolve("no-proc")).servingPid(IntegrationDatabase.h2SharedLockFile(dir),
                    List.of(ProcessHandle.current().pid()))).isEmpty();
        }
    }
}
