package io.pylon.manager.db;

import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The embedded database's durability wiring: the default URL writes every commit at once, and forcing to the disk
 * needs an H2 admin, which start-up checks instead of letting every write fail later. The kill -9 behaviour itself is
 * tested on a real process by KillNineDurabilityTest (distribution).
 */
class CommitSyncTest {
    private Path dir;

    @BeforeEach
    void createDir() throws Exception {
        dir = Files.createTempDirectory("pylon-h2-sync");
    }

    @AfterEach
    void deleteDir() throws Exception {
        TestPods.deleteTree(dir);
    }

    @Test
    void theDefaultUrlWritesEveryCommitAtOnce() throws Exception {
        assertThat(asAdmin("SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'WRITE_DELAY'"))
                .isEqualTo("0");
    }

    @Test
    void aUserThatCannotForceTheFileIsRefusedAtStartNamingTheSetting() throws Exception {
        asAdmin("CREATE USER reader PASSWORD 'reader-password'", "GRANT ALL ON SCHEMA PUBLIC TO reader");

        // an H2 URL of the operator's own (pylon.manager.db.url): setting WRITE_DELAY would need an admin too
        String url = "jdbc:h2:file:" + dir.resolve("manager").toAbsolutePath();
        assertThatThrownBy(() -> Database.open(url, "reader", "reader-password", 2, true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("CHECKPOINT SYNC")
                .hasMessageContaining("pylon.manager.db.h2-sync=false")
                .hasMessageNotContaining("reader-password");
        try (Database database = Database.open(url, "reader", "reader-password", 2, false)) {
            assertThat(database.jdbc().update("UPDATE users SET failed_attempts = 0 WHERE 1 = 0")).isZero();
        }
    }

    /** Runs statements as the embedded database's admin (default URL and user): the last query's first value. */
    private String asAdmin(String... sql) throws SQLException {
        try (Database database = Database.open(Database.h2Url(dir), "pylon", "", 2);
             Connection connection = database.dataSource().getConnection();
             Statement statement = connection.createStatement()) {
            String value = null;
            for (String one : sql) {
                if (statement.execute(one)) {
                    try (ResultSet rs = statement.getResultSet()) {
                        value = rs.next() ? rs.getString(1) : null;
                    }
                }
            }
            return value;
        }
    }
}
