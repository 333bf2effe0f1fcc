import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Fuzzer: random mutations of valid management-API requests (bad request lines, bad chunking, huge,
 * duplicated and control-character headers, bad bodies, HTTP/1.0, pipelining, smuggling attempts) sent on raw
 * sockets to one pod; counts the answers by status class and everything that is a failure: any response >= 500, a
 * second response to a request that carried Connection: close (a smuggled request), an answer that is not HTTP.
 *
 *   java Fuzz.java HOST PORT COUNT SEED [ENVIRONMENT_ID]
 */
public final class Fuzz {
    private static final String MARK = "FUZZFORGED audit action=token.issued";
    private static final String SMUGGLED = "GET /platform/management/version HTTP/1.1\r\nHost: s\r\n\r\n";

    record Outcome(String kind, String sample) {
    }

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int count = Integer.parseInt(args[2]);
        long seed = Long.parseLong(args[3]);
        String envId = args.length > 4 ? args[4] : "none";
        Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
        Map<String, String> samples = new ConcurrentHashMap<>();
        Semaphore parallel = new Semaphore(16);
        List<Mutation> mutations = mutations(envId);
        Random random = new Random(seed);
        long t0 = System.nanoTime();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < count; i++) {
                Mutation mutation = mutations.get(random.nextInt(mutations.size()));
                Random own = new Random(random.nextLong());
                String base = BASES.get(own.nextInt(BASES.size())).replace("{ENV}", envId);
                byte[] request = mutation.apply.apply(new Input(base, own));
                parallel.acquire();
                threads.submit(() -> {
                    try {
                        Outcome outcome = exchange(host, port, request, mutation.closes);
                        counts.computeIfAbsent(outcome.kind, k -> new AtomicInteger()).incrementAndGet();
                        counts.computeIfAbsent("mutation " + mutation.name, k -> new AtomicInteger()).incrementAndGet();
                        if (outcome.sample != null) {
                            samples.putIfAbsent(outcome.kind + " " + mutation.name, outcome.sample);
                        }
                    } finally {
                        parallel.release();
                    }
                });
            }
        }
        System.out.printf("target %s:%d requests %d seed %d in %.1f s%n", host, port, count, seed, (System.nanoTime() - t0) / 1e9);
        new TreeMap<>(counts).forEach((k, v) -> System.out.printf("  %-40s %d%n", k, v.get()));
        int failures = counts.entrySet().stream().filter(e -> e.getKey().startsWith("FAIL")).mapToInt(e -> e.getValue().get()).sum();
        System.out.println("FAILURES " + failures);
        new TreeMap<>(samples).forEach((k, v) -> System.out.println("  sample " + k + ": " + v));
    }

    static Outcome exchange(String host, int port, byte[] request, boolean closes) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 3000);
            socket.setSoTimeout(1500);
            try {
                socket.getOutputStream().write(request);
            } catch (IOException e) {
                // refused while writing: read what was answered
            }
            ByteArrayOutputStream in = new ByteArrayOutputStream();
            boolean eof = read(socket.getInputStream(), in);
            String text = in.toString(StandardCharsets.ISO_8859_1);
            if (text.isEmpty()) {
                return new Outcome(eof ? "no answer, closed" : "no answer, waiting (incomplete request)", null);
            }
            if (!text.startsWith("HTTP/1.1 ")) {
                return new Outcome("FAIL not HTTP", escape(text));
            }
            List<Integer> statuses = new ArrayList<>();
            for (int at = 0; (at = text.indexOf("HTTP/1.1 ", at)) >= 0; at += 9) {
                if (at == 0 || text.startsWith("\n", at - 1)) {
                    statuses.add(Integer.parseInt(text.substring(at + 9, at + 12)));
                }
            }
            if (statuses.stream().anyMatch(s -> s >= 500)) {
                return new Outcome("FAIL 5xx", escape(new String(request, StandardCharsets.ISO_8859_1)) + " => " + escape(text));
            }
            if (closes && statuses.size() > 1) {
                return new Outcome("FAIL smuggled", escape(new String(request, StandardCharsets.ISO_8859_1)));
            }
            return new Outcome(statuses.getFirst() / 100 + "xx" + (statuses.size() > 1 ? " (pipelined)" : ""), null);
        } catch (IOException e) {
            return new Outcome("FAIL connect " + e.getClass().getSimpleName(), e.getMessage());
        }
    }

    private static boolean read(InputStream in, ByteArrayOutputStream out) throws IOException {
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (java.net.SocketException e) {
            return true;
        }
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.substring(0, Math.min(s.length(), 300)).toCharArray()) {
            b.append(c < 0x20 || c > 0x7e ? String.format("\\x%02x", (int) c) : String.valueOf(c));
        }
        return b.toString();
    }

    // valid management-API requests of the Manager and the Worker/Cache pods
    static final List<String> BASES = List.of(
            "GET /platform/management/health HTTP/1.1\r\nHost: pod\r\nAccept: application/json\r\n\r\n",
            "GET /platform/management/version HTTP/1.1\r\nHost: pod\r\n\r\n",
            "GET /platform/management/health/ready HTTP/1.1\r\nHost: pod\r\n\r\n",
            "GET /platform/diagnostics/jvm HTTP/1.1\r\nHost: pod\r\nAuthorization: {ENV}\r\n\r\n",
            "POST /apiops/auth/token HTTP/1.1\r\nHost: pod\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    + "Content-Length: 63\r\n\r\ngrant_type=client_credentials&client_id=admin&client_secret=xyz",
            "GET /apiops/environments/local HTTP/1.1\r\nHost: pod\r\nAuthorization: Bearer abc.def\r\n\r\n",
            "POST /apiops/environments HTTP/1.1\r\nHost: pod\r\nContent-Type: application/json\r\n"
                    + "Authorization: Bearer abc\r\nContent-Length: 16\r\n\r\n{\"name\":\"stage\"}",
            "GET /apiops/me HTTP/1.1\r\nHost: pod\r\nCookie: session=abc\r\n\r\n");

    record Input(String base, Random random) {
        String line() {
            return base.substring(0, base.indexOf("\r\n"));
        }

        String headers() {
            return base.substring(base.indexOf("\r\n") + 2, base.indexOf("\r\n\r\n") + 2);
        }

        String body() {
            return base.substring(base.indexOf("\r\n\r\n") + 4);
        }

        String method() {
            return line().substring(0, line().indexOf(' '));
        }

        String path() {
            return line().split(" ")[1];
        }

        String withoutLength() {
            return headers().replaceAll("Content-Length: \\d+\r\n", "");
        }

        String pick(String... options) {
            return options[random.nextInt(options.length)];
        }

        String junk(int n) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < n; i++) {
                b.append((char) random.nextInt(256));
            }
            return b.toString();
        }
    }

    record Mutation(String name, boolean closes, Function<Input, byte[]> apply) {
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    static List<Mutation> mutations(String envId) {
        List<Mutation> m = new ArrayList<>();
        m.add(new Mutation("valid", false, in -> bytes(in.base())));
        m.add(new Mutation("bad method", false, in -> bytes(in.pick("G\u0000T", "GET\t", "", "PROPFIND", "get", "CONNECT", "X".repeat(300))
                + " " + in.path() + " HTTP/1.1\r\n" + in.headers() + "\r\n" + in.body())));
        m.add(new Mutation("bad version", false, in -> bytes(in.method() + " " + in.path() + " "
                + in.pick("HTTP/9.9", "HTTP/1", "HTTP/1.1 extra", "HTTP/2.0", "http/1.1", "HTTP/1.10", "", "HTTP/0.9")
                + "\r\n" + in.headers() + "\r\n" + in.body())));
        m.add(new Mutation("bad path", false, in -> bytes(in.method() + " " + in.pick("/%00", "/a%zz", "/../../etc/passwd",
                "*", "http://evil/x", "/a b", "/\u0001\u001b[2J", "/%0d%0a" + MARK.replace(" ", "%20"), "/" + "a".repeat(9000),
                in.path() + "?q=%0a" + MARK.replace(" ", "+"), in.path() + "#frag", "//x//y", "/\u00ff\u00fe")
                + " HTTP/1.1\r\n" + in.headers() + "\r\n" + in.body())));
        m.add(new Mutation("huge header", false, in -> bytes(in.line() + "\r\n" + in.headers() + "X-Big: "
                + "a".repeat(new int[]{17_000, 66_000, 200_000}[in.random().nextInt(3)])
                + "\r\n\r\n" + in.body())));
        m.add(new Mutation("many headers", false, in -> {
            StringBuilder h = new StringBuilder();
            for (int i = 0; i < 2000 + in.random().nextInt(3000); i++) {
                h.append("X-").append(i).append(": v\r\n");
            }
            return bytes(in.line() + "\r\n" + in.headers() + h + "\r\n" + in.body());
        }));
        m.add(new Mutation("duplicated header", false, in -> bytes(in.line() + "\r\n" + in.headers()
                + in.pick("Host: other\r\n", "Authorization: " + envId + "\r\n", "Authorization: Bearer x\r\n",
                "Content-Length: 5\r\n", "Content-Length: 0\r\n", "Transfer-Encoding: chunked\r\n", "Connection: close\r\nConnection: keep-alive\r\n")
                + "\r\n" + in.body())));
        m.add(new Mutation("control-char header", false, in -> bytes(in.line() + "\r\n" + in.headers()
                + in.pick("X-A: a\u0000b\r\n", "X-A: a\rb\r\n", "X-A: a\nb\r\n", "X-A: \u001b[2J" + MARK + "\r\n",
                "X A: b\r\n", "X-A : b\r\n", ": novalue\r\n", "NoColon\r\n", " folded\r\n", "X-A: a\r\n\tfolded\r\n",
                "User-Agent: \r\n" + MARK + "\r\n", "X-\u00e9: v\r\n", "Host: a:b:c\r\n")
                + "\r\n" + in.body())));
        m.add(new Mutation("bad content-length", false, in -> bytes(in.line() + "\r\n" + in.withoutLength()
                + "Content-Length: " + in.pick("-1", "abc", "1e3", "99999999999999999999", "+5", " 5", "0x10", "5, 6", "")
                + "\r\n\r\n" + in.body())));
        m.add(new Mutation("short body", false, in -> bytes(in.line() + "\r\n" + in.withoutLength()
                + "Content-Length: 100\r\n\r\n" + in.body())));
        m.add(new Mutation("long body", false, in -> bytes(in.line() + "\r\n" + in.withoutLength()
                + "Content-Length: 2\r\n\r\n" + in.body() + "GARBAGE /x HTTP/1.1\r\n\r\n")));
        m.add(new Mutation("bad chunking", false, in -> bytes(in.line() + "\r\n" + in.withoutLength()
                + in.pick("Transfer-Encoding: chunked\r\n", "Transfer-Encoding: gzip, chunked\r\n", "Transfer-Encoding: chunked, gzip\r\n",
                "Transfer-Encoding: xchunked\r\n", "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n", "Transfer-Encoding:\tchunked\r\n")
                + "\r\n" + in.pick("3;ext=1\r\nabc\r\n0\r\n\r\n", "3\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\n", "zz\r\nabc\r\n0\r\n\r\n",
                "-1\r\nabc\r\n0\r\n\r\n", "ffffffffffff\r\nabc\r\n0\r\n\r\n", "3\r" + MARK + "\r\nabc\r\n0\r\n\r\n",
                "3\r\nabcdef\r\n0\r\n\r\n", "3\r\nabc", "0\r\n\r\n" + SMUGGLED))));
        m.add(new Mutation("bad body", false, in -> {
            String body = in.pick("{", "{\"name\":", "\u0000\u0001\u0002", "a=%zz&b", "{\"name\":\"" + "x".repeat(5000) + "\"}",
                    "[1,2,3]", "null", "grant_type=client_credentials&client_id=%0a" + MARK.replace(" ", "+"), in.junk(200));
            return bytes(in.line() + "\r\n" + in.withoutLength().replaceAll("Content-Type: [^\r]*\r\n", "")
                    + "Content-Type: " + in.pick("application/json", "application/x-www-form-urlencoded", "text/plain", "x/y; charset=bogus")
                    + "\r\nContent-Length: " + bytes(body).length + "\r\n\r\n" + body);
        }));
        m.add(new Mutation("http/1.0", false, in -> bytes(in.line().replace("HTTP/1.1", "HTTP/1.0") + "\r\n"
                + in.pick("", "Connection: keep-alive\r\n") + in.headers().replace("Host: pod\r\n", in.pick("", "Host: pod\r\n"))
                + "\r\n" + in.body() + in.pick("", in.base()))));
        m.add(new Mutation("pipelined", false, in -> bytes(in.base() + in.base() + in.pick("", in.base()))));
        m.add(new Mutation("smuggle via connection close", true, in -> bytes(in.line().replaceFirst("^\\S+", in.pick("POST", "PUT", "GET", "DELETE"))
                + "\r\n" + in.withoutLength() + "Connection: close\r\nContent-Length: " + SMUGGLED.length() + "\r\n\r\n" + SMUGGLED)));
        m.add(new Mutation("expect continue", false, in -> bytes(in.line() + "\r\n" + in.headers() + "Expect: 100-continue\r\n\r\n" + in.body())));
        m.add(new Mutation("byte flips", false, in -> {
            byte[] b = bytes(in.base());
            for (int i = 0; i < 1 + in.random().nextInt(4); i++) {
                b[in.random().nextInt(b.length)] = (byte) in.random().nextInt(256);
            }
            return b;
        }));
        m.add(new Mutation("truncated", false, in -> bytes(in.base().substring(0, in.random().nextInt(in.base().length())))));
        m.add(new Mutation("bare LF", false, in -> bytes(in.base().replace("\r\n", "\n"))));
        return m;
    }
}
