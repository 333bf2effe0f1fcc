import io.pylon.manager.auth.HashingPool;
import io.pylon.manager.auth.PasswordHasher;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Token endpoint latency over HTTP (sequential, after a warm-up) for a known user with the right password and for an
 * unknown user, plus the Argon2id hash and verify times in this JVM with the same parameters:
 * `java -cp <manager classpath> TokenLatency.java <port> <password> <requests> <memoryKiB> <iterations> <parallelism>`.
 */
public final class TokenLatency {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String password = args[1];
        int requests = Integer.parseInt(args[2]);
        HttpClient client = HttpClient.newHttpClient();
        URI uri = URI.create("http://127.0.0.1:" + port + "/apiops/auth/token");
        for (int i = 0; i < 5; i++) {
            post(client, uri, "admin", password, 200);
        }
        report("token, known user, right password", time(requests, () -> post(client, uri, "admin", password, 200)));
        report("token, unknown user (dummy hash)", time(requests, () -> post(client, uri, "nobody-" + System.nanoTime(), password, 401)));

        PasswordHasher hasher = new PasswordHasher(Integer.parseInt(args[3]), Integer.parseInt(args[4]), Integer.parseInt(args[5]),
                new HashingPool(1, 1));
        System.out.println("hash parameters: " + hasher.describe());
        String hash = hasher.hash("warm-up-password-1");
        for (int i = 0; i < 5; i++) {
            hasher.verify("warm-up-password-1", hash);
        }
        report("argon2id hash (in process)", time(requests, () -> hasher.hash("a-password-to-hash")));
        report("argon2id verify (in process)", time(requests, () -> hasher.verify("warm-up-password-1", hash)));
    }

    interface Action {
        void run() throws Exception;
    }

    static List<Double> time(int n, Action action) throws Exception {
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            action.run();
            millis.add((System.nanoTime() - t0) / 1e6);
        }
        Collections.sort(millis);
        return millis;
    }

    static void report(String what, List<Double> sorted) {
        System.out.printf("%-40s n=%d  median %.1f ms  p90 %.1f ms  min %.1f ms  max %.1f ms%n", what, sorted.size(),
                sorted.get(sorted.size() / 2), sorted.get((int) (sorted.size() * 0.9)), sorted.getFirst(), sorted.getLast());
    }

    static void post(HttpClient client, URI uri, String user, String password, int expected) throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=" + user
                        + "&client_secret=" + password)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException("expected " + expected + ", got " + response.statusCode() + " " + response.body());
        }
    }
}
