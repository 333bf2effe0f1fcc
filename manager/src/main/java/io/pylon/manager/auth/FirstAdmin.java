package io.pylon.manager.auth;

import org.jspecify.annotations.Nullable;

import java.io.PrintStream;
import java.security.SecureRandom;

/**
 * The first administrator, created at start-up when the database holds no account: with the password from the
 * settings (a Kubernetes Secret), or with a generated one printed once on standard output (never logged).
 */
public final class FirstAdmin {
    private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    private static final int GENERATED_LENGTH = 24;

    private FirstAdmin() {
    }

    /** Returns whether an account was created. */
    public static boolean ensure(Accounts accounts, String username, @Nullable String configuredPassword, PrintStream console) {
        String password = configuredPassword != null ? configuredPassword : generate();
        if (!accounts.createFirstAdmin(username, password)) {
            return false;
        }
        if (configuredPassword == null) {
            console.println();
            console.println("==================================================================================");
            console.println(" Pylon Manager: created the first administrator '" + Accounts.normalise(username) + "'.");
            console.println(" Its generated password, shown only this once:");
            console.println();
            console.println("     " + password);
            console.println();
            console.println(" Sign in and change it, or set pylon.manager.admin.password (PYLON_MANAGER_ADMIN_PASSWORD)");
            console.println(" before the first start.");
            console.println("==================================================================================");
            console.println();
            console.flush();
        }
        return true;
    }

    /** 24 characters from a 56-letter alphabet without look-alikes: about 139 bits, safe in a URL or Basic header. */
    public static String generate() {
        SecureRandom random = new SecureRandom();
        StringBuilder password = new StringBuilder(GENERATED_LENGTH);
        for (int i = 0; i < GENERATED_LENGTH; i++) {
            password.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return password.toString();
    }
}
