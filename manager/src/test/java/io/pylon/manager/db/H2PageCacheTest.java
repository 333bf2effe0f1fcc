package io.pylon.manager.db;

import io.pylon.core.testing.TestPods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded database's page cache stays at its small bound under a stream of commits, each of which writes a
 * chunk of new pages (what made every young collection of a Manager under token load copy megabytes of cached pages).
 */
class H2PageCacheTest {
    private Path dir;

    @BeforeEach
    void createDir() throws Exception {
        dir = Files.createTempDirectory("pylon-h2-cache");
    }

    @AfterEach
    void deleteDir() throws Exception {
        TestPods.deleteTree(dir);
    }

    @Test
    void commitsOfNewRowsKeepThePageCacheWithinItsBound() throws Exception {
        try (Database database = Database.open(Database.h2Url(dir), "pylon", "", 2, false);
             Connection connection = database.dataSource().getConnection()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE filler(id INT PRIMARY KEY, note VARCHAR(400))");
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO filler VALUES (?, ?)")) {
                for (int i = 0; i < 4_000; i++) {   // auto-commit: one chunk per row, as token and audit writes
                    insert.setInt(1, i);
                    insert.setString(2, "row " + i + " ".repeat(300));
                    insert.executeUpdate();
                }
            }
            // H2 reports both in whole MiB; without CACHE_SIZE this test saw 15 MiB used
            assertThat(setting(connection, "info.CACHE_MAX_SIZE")).as("bound, MiB").isEqualTo(1);
            assertThat(setting(connection, "info.CACHE_SIZE")).as("pages cached, MiB").isLessThanOrEqualTo(1);
        }
    }

    private static int setting(Connection connection, String name) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = ?")) {
            query.setString(1, name);
            try (ResultSet rs = query.executeQuery()) {
                assertThat(rs.next()).as(name).isTrue();
                return Integer.parseInt(rs.getString(1));
            }
        }
    }
}
