package io.pylon.integration.store;

import java.sql.SQLException;

/** A database failure; its message names the SQL state, never the URL or credentials. */
public final class StoreException extends RuntimeException {
    public StoreException(SQLException cause) {
        super("database failure (SQL state " + cause.getSQLState() + "): " + cause.getMessage(), cause);
    }

    /** Whether the database refused a row because its key exists. */
    public boolean duplicateKey() {
        return getCause() instanceof SQLException s && s.getSQLState() != null && s.getSQLState().startsWith("23");
    }
}
