package io.pylon.core.net;

import org.jspecify.annotations.Nullable;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Host name lookups within a bound. The JDK's lookup has none of its own: a DNS server that does not answer holds the
 * caller for the system resolver's whole retry cycle (10 s and more), whatever the caller's own timeout. Here a lookup
 * gives up at the bound of the calling thread ({@link #run} / {@link #call}; {@value #DEFAULT_BOUND_SECONDS} s outside
 * one) with an {@link UnknownHostException}. Lookups of one name at once share one, made on a virtual thread of its own
 * (a DNS outage holds one thread a name, not one a caller); addresses come from {@link InetAddress} and its cache. IP
 * literals are parsed, never looked up.
 *
 * <p>Threading: any thread may look up; lookups in flight are shared through a concurrent map; the bound is the
 * calling thread's.
 */
public final class NameLookups {
    /** The lookups of this JVM. */
    public static final NameLookups SHARED = new NameLookups();
    static final long DEFAULT_BOUND_SECONDS = 10;
    private static final ThreadLocal<Duration> BOUND = new ThreadLocal<>();

    private final ConcurrentHashMap<String, CompletableFuture<InetAddress[]>> inFlight = new ConcurrentHashMap<>();

    private NameLookups() {
    }

    /** Something that may look names up, and throws what it throws. */
    @FunctionalInterface
    public interface Action<E extends Exception> {
        void run() throws E;
    }

    /** Something that may look names up, returns a value, and throws what it throws. */
    @FunctionalInterface
    public interface Call<T, E extends Exception> {
        T call() throws E;
    }

    /** Runs {@code action} with this thread's lookups bounded by {@code bound}. */
    public static <E extends Exception> void run(Duration bound, Action<E> action) throws E {
        @Nullable Duration outer = BOUND.get();
        BOUND.set(bound);
        try {
            action.run();
        } finally {
            restore(outer);
        }
    }

    /** Calls {@code call} with this thread's lookups bounded by {@code bound}. */
    public static <T, E extends Exception> T call(Duration bound, Call<T, E> call) throws E {
        @Nullable Duration outer = BOUND.get();
        BOUND.set(bound);
        try {
            return call.call();
        } finally {
            restore(outer);
        }
    }

    private static void restore(@Nullable Duration outer) {
        if (outer == null) {
            BOUND.remove();
        } else {
            BOUND.set(outer);
        }
    }

    /** The addresses of {@code host}, within this thread's bound. */
    public InetAddress[] lookUp(String host) throws UnknownHostException {
        @Nullable Duration set = BOUND.get();
        return lookUp(host, set != null ? set : Duration.ofSeconds(DEFAULT_BOUND_SECONDS));
    }

    /** The addresses of {@code host}, within {@code bound}. */
    public InetAddress[] lookUp(String host, Duration bound) throws UnknownHostException {
        if (isLiteral(host)) {
            return InetAddress.getAllByName(host); // parsed, no lookup
        }
        CompletableFuture<InetAddress[]> mine = new CompletableFuture<>();
        CompletableFuture<InetAddress[]> lookup = inFlight.putIfAbsent(host, mine);
        if (lookup == null) {
            lookup = mine;
            start(host, mine); // started once it is in the map, so that its end takes it out
        }
        try {
            return lookup.get(bound.toMillis(), TimeUnit.MILLISECONDS).clone();
        } catch (TimeoutException e) {
            throw new UnknownHostException(host + ": no answer from DNS within " + bound.toMillis() + " ms");
        } catch (ExecutionException e) {
            UnknownHostException failure = new UnknownHostException(host + ": "
                    + (e.getCause() instanceof UnknownHostException ? "not found" : String.valueOf(e.getCause())));
            failure.initCause(e.getCause());
            throw failure;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnknownHostException(host + ": interrupted while looking it up");
        }
    }

    private void start(String host, CompletableFuture<InetAddress[]> lookup) {
        Thread.ofVirtual().name("name-lookup").start(() -> {
            try {
                lookup.complete(InetAddress.getAllByName(host));
            } catch (Throwable t) {
                lookup.completeExceptionally(t);
            } finally {
                inFlight.remove(host, lookup);
            }
        });
    }

    // an IPv4 literal (four numbers up to 255) or an IPv6 one (it has a colon): InetAddress parses these without a
    // lookup. Anything else, however it looks, goes the bounded way.
    static boolean isLiteral(String host) {
        if (host.indexOf(':') >= 0) {
            return true;
        }
        String[] parts = host.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(c -> c >= '0' && c <= '9')
                    || Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }
}
