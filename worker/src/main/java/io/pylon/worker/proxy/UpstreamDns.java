package io.pylon.worker.proxy;

import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.core5.net.InetAddressUtils;
import org.apache.hc.core5.util.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Resolves the upstreams' host names within a bound. The JDK's lookup has none of its own: a DNS server that does not
 * answer held every new upstream connection for the system resolver's whole retry cycle (10 s and more), past the
 * route's connect timeout, while failover waited. Here a lookup gives up after the connect timeout of the request
 * that needs it ({@link #within}; 10 s outside one) with an {@link UnknownHostException}, which the
 * dispatch treats as a refused connection: the next upstream is tried. Lookups of one name at once share one (a DNS
 * outage holds one lookup thread a name, not one a request); addresses come from {@link InetAddress} and its cache.
 *
 * <p>Threading: lookups run on virtual threads of their own and are shared through a concurrent map; the bound is
 * the calling thread's.
 */
final class UpstreamDns implements DnsResolver {
    static final UpstreamDns INSTANCE = new UpstreamDns();
    private static final Timeout DEFAULT_BOUND = Timeout.ofSeconds(10);
    private static final ThreadLocal<Timeout> BOUND = new ThreadLocal<>();

    private final ConcurrentHashMap<String, CompletableFuture<InetAddress[]>> inFlight = new ConcurrentHashMap<>();

    private UpstreamDns() {
    }

    /** An action that connects, and may throw what connecting throws. */
    @FunctionalInterface
    interface Connecting<E extends Exception> {
        void run() throws E;
    }

    /** Runs {@code connecting} with lookups on this thread bounded by {@code bound}. */
    static <E extends Exception> void within(Timeout bound, Connecting<E> connecting) throws E {
        Timeout outer = BOUND.get();
        BOUND.set(bound);
        try {
            connecting.run();
        } finally {
            if (outer == null) {
                BOUND.remove();
            } else {
                BOUND.set(outer);
            }
        }
    }

    /** The address to connect to for {@code host}: its first, looked up within {@code bound}. */
    InetSocketAddress address(String host, int port, Timeout bound) throws UnknownHostException {
        return new InetSocketAddress(resolve(host, bound)[0], port);
    }

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        Timeout set = BOUND.get();
        return resolve(host, set != null ? set : DEFAULT_BOUND);
    }

    private InetAddress[] resolve(String host, Timeout bound) throws UnknownHostException {
        if (InetAddressUtils.isIPv4(host) || InetAddressUtils.isIPv6(host)) {
            return InetAddress.getAllByName(host); // a literal: no lookup
        }
        CompletableFuture<InetAddress[]> mine = new CompletableFuture<>();
        CompletableFuture<InetAddress[]> lookup = inFlight.putIfAbsent(host, mine);
        if (lookup == null) {
            lookup = mine;
            lookUp(host, mine); // started once it is in the map, so that its end takes it out
        }
        try {
            return lookup.get(bound.toMilliseconds(), TimeUnit.MILLISECONDS).clone();
        } catch (TimeoutException e) {
            throw new UnknownHostException(host + ": no answer from DNS within " + bound.toMilliseconds() + " ms");
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

    private void lookUp(String host, CompletableFuture<InetAddress[]> lookup) {
        Thread.ofVirtual().name("upstream-dns").start(() -> {
            try {
                lookup.complete(InetAddress.getAllByName(host));
            } catch (Throwable t) {
                lookup.completeExceptionally(t);
            } finally {
                inFlight.remove(host, lookup);
            }
        });
    }

    @Override
    public String resolveCanonicalHostname(String host) throws UnknownHostException {
        return SystemDefaultDnsResolver.INSTANCE.resolveCanonicalHostname(host);
    }
}
