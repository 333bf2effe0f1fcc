package io.pylon.integration.store;

import io.pylon.core.testing.TestPostgres;

import java.nio.file.Path;

/** {@link RunStoreTest} on PostgreSQL (the production database): each test on a database of its own. */
class RunStorePostgresTest extends RunStoreTest {
    @Override
    IntegrationDatabase openDatabase(Path dir) throws Exception {
        TestPostgres postgres = TestPostgres.shared();
        return IntegrationDatabase.open(postgres.createDatabase("runstore"), TestPostgres.USER, TestPostgres.PASSWORD, 2,
                null);
    }
}
