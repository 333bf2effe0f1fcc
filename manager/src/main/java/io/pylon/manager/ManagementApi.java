package io.pylon.manager;

import io.pylon.manager.api.BearerAuth;
import io.pylon.manager.audit.AuditLog;
import io.pylon.manager.auth.Accounts;
import io.pylon.manager.auth.TokenService;
import io.pylon.manager.environments.EnvironmentStore;

/** The parts of a running Manager that other code on the Manager (the UI) builds on. */
public record ManagementApi(BearerAuth auth, EnvironmentStore environments, AuditLog audit, Accounts accounts,
                            TokenService tokens) {
}
