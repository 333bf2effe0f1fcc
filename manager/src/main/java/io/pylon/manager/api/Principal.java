package io.pylon.manager.api;

/** Who sent a request, as proven by its Bearer token. */
public record Principal(String username, Role role, String tokenId) {

    public boolean isAdmin() {
        return role == Role.ADMIN;
    }
}
