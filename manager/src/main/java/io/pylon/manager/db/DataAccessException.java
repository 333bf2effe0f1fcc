package io.pylon.manager.db;

import java.sql.SQLException;

/** A database failure; the message carries the SQL state only, never values. */
public final class DataAccessException extends RuntimeException {
    public DataAccessException(SQLException cause) {
        super("database failure (SQL state " + cause.getSQLState() + ")", cause);
    }
}
