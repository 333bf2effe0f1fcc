import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The client side of bench/hostile/kill9.sh, JDK only:
 * <ul>
 * <li>{@code write <baseUrl> <password> <threads> <ackFile>}: creates users and personal tokens (revoking every third
 * token) from several threads until the Manager stops answering; every 2xx goes to the ack file at once
 * ({@code U name}, {@code T token}, {@code R revoked token}).</li>
 * <li>{@code check <baseUrl> <password> <ackFile>}: prints how many acknowledged writes are still there.</li>
 * <li>{@code latency <baseUrl> <password> <tokens> <users>}: sequential personal-token and user creations, median
 * and p90 in ms.</li>
 * </ul>
 */
public final class Kill9Client {
    private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");
    private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");
    private static final Pattern ACCESS = Pattern.compile("\"access_token\":\"([^\"]+)\"");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public static void main(String[] args) throws Exception {
        String base = args[1];
        String admin = adminToken(base, args[2]);
        switch (args[0]) {
            case "write" -> write(base, admin, Integer.parseInt(args[3]), Path.of(args[4]));
            case "check" -> check(base, admin, Path.of(args[3]));
            case "latency" -> latency(base, admin, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static void write(String base, String admin, int threads, Path ackFile) throws Exception {
        String run = Long.toString(System.nanoTime(), 36);
        try (PrintWriter acks = new PrintWriter(Files.newBufferedWriter(ackFile), true)) {
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String prefix = "k" + run + "t" + t + "n";
                workers.add(Thread.ofPlatform().start(() -> writeLoop(base, admin, prefix, acks)));
            }
            for (Thread worker : workers) {
                worker.join();
            }
        }
    }

    private static void writeLoop(String base, String admin, String prefix, PrintWriter acks) {
        for (int n = 0; ; n++) {
            try {
                String name = prefix + n;
                if (send(json("POST", base + "/apiops/users", admin, "{\"username\":\"" + name
                        + "\",\"password\":\"kill9-password-" + n + "\",\"role\":\"viewer\"}")).statusCode() == 201) {
                    ack(acks, "U " + name);
                }
                HttpResponse<String> created = send(json("POST", base + "/apiops/tokens", admin,
                        "{\"name\":\"" + name + "\",\"expiresAt\":null}"));
                if (created.statusCode() != 201) {
                    continue;
                }
                String token = group(TOKEN, created.body());
                if (n % 3 != 2) {
                    ack(acks, "T " + token);
                } else if (send(json("DELETE", base + "/apiops/tokens/" + group(ID, created.body()), admin, null))
                        .statusCode() == 204) {
                    ack(acks, "R " + token);
                }
            } catch (IOException | InterruptedException e) {
                return; // the Manager is gone; what was not answered was not acknowledged
            }
        }
    }

    private static void ack(PrintWriter acks, String line) {
        synchronized (acks) {
            acks.println(line);
        }
    }

    private static void check(String base, String admin, Path ackFile) throws Exception {
        int acknowledged = 0;
        int lost = 0;
        for (String line : Files.readAllLines(ackFile)) {
            String value = line.substring(2);
            int status = switch (line.charAt(0)) {
                case 'U' -> send(json("GET", base + "/apiops/users/" + value, admin, null)).statusCode() == 200 ? 0 : 1;
                case 'T' -> send(json("GET", base + "/apiops/auth/me", value, null)).statusCode() == 200 ? 0 : 1;
                case 'R' -> send(json("GET", base + "/apiops/auth/me", value, null)).statusCode() == 401 ? 0 : 1;
                default -> throw new IllegalStateException(line);
            };
            acknowledged++;
            lost += status;
        }
        System.out.println("acknowledged=" + acknowledged + " lost=" + lost);
    }

    private static void latency(String base, String admin, int tokens, int users) throws Exception {
        String run = Long.toString(System.nanoTime(), 36);
        for (int i = 0; i < 20; i++) {
            expect(send(json("POST", base + "/apiops/tokens", admin, "{\"name\":\"warm" + i + "\"}")), 201);
        }
        List<Double> tokenMs = new ArrayList<>();
        for (int i = 0; i < tokens; i++) {
            long t0 = System.nanoTime();
            expect(send(json("POST", base + "/apiops/tokens", admin, "{\"name\":\"l" + run + i + "\"}")), 201);
            tokenMs.add((System.nanoTime() - t0) / 1e6);
        }
        List<Double> userMs = new ArrayList<>();
        for (int i = 0; i < users; i++) {
            long t0 = System.nanoTime();
            expect(send(json("POST", base + "/apiops/users", admin, "{\"username\":\"l" + run + i
                    + "\",\"password\":\"latency-password-" + i + "\",\"role\":\"viewer\"}")), 201);
            userMs.add((System.nanoTime() - t0) / 1e6);
        }
        System.out.printf("token_create_median_ms=%.2f token_create_p90_ms=%.2f user_create_median_ms=%.2f user_create_p90_ms=%.2f%n",
                percentile(tokenMs, 50), percentile(tokenMs, 90), percentile(userMs, 50), percentile(userMs, 90));
    }

    private static double percentile(List<Double> values, int p) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    private static void expect(HttpResponse<String> response, int status) {
        if (response.statusCode() != status) {
            throw new IllegalStateException("expected " + status + ", got " + response.statusCode() + ": " + response.body());
        }
    }

    private static String adminToken(String base, String password) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base + "/apiops/auth/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=admin&client_secret="
                        + URLEncoder.encode(password, StandardCharsets.UTF_8))).build());
        expect(response, 200);
        return group(ACCESS, response.body());
    }

    private static HttpRequest json(String method, String url, String bearer, String body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + bearer)
                .timeout(Duration.ofSeconds(60));
        if (body == null) {
            return builder.method(method, HttpRequest.BodyPublishers.noBody()).build();
        }
        return builder.header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static String group(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        if (!matcher.find()) {
            throw new IllegalStateException("no " + pattern + " in " + text);
        }
        return matcher.group(1);
    }
}
