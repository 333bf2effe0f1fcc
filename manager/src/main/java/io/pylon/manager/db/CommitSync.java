package io.pylon.manager.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What {@link Jdbc} does after a write is committed and before it returns, so that the caller's acknowledgement
 * follows the write to the disk. Stateless; called concurrently by request threads, each with its own connection.
 */
@FunctionalInterface
public interface CommitSync {

    void afterCommit(Connection connection) throws SQLException;

    /** Nothing to do: the database makes a commit durable itself (PostgreSQL flushes its WAL before it answers). */
    CommitSync NONE = connection -> {
    };

    /**
     * Embedded H2: with {@code WRITE_DELAY=0} a commit reaches the file (the OS page cache) before it returns, which
     * survives a killed process; {@code CHECKPOINT SYNC} then forces the file to the disk (FileChannel.force), which
     * survives power loss and a kernel crash too. H2 never forces the file on commit by itself.
     */
    CommitSync H2_FORCE_TO_DISK = connection -> {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CHECKPOINT SYNC");
        }
    };
}
