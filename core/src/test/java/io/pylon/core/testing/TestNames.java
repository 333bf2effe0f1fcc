package io.pylon.core.testing;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Host names for tests of upstream name lookups, answered in this JVM with no DNS traffic: {@code nx-*.pylon-test}
 * is not found, {@code hung-*.pylon-test} answers nothing for a minute (a DNS server that does not answer) and then
 * is not found, {@code lo-*.pylon-test} is 127.0.0.1. Every other name goes to the JDK's own resolver, unchanged.
 * Installed for the whole test JVM through {@code META-INF/services}. Counts the lookups of each test name.
 * Threading: any thread may look up; the counts are concurrent.
 */
public final class TestNames extends InetAddressResolverProvider {
    private static final String SUFFIX = ".pylon-test";
    private static final Map<String, AtomicInteger> LOOKUPS = new ConcurrentHashMap<>();

    /** How many times {@code host} was looked up in this JVM (names the JDK's cache answered are not counted). */
    public static int lookups(String host) {
        AtomicInteger count = LOOKUPS.get(host);
        return count == null ? 0 : count.get();
    }

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver builtin = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                if (!host.endsWith(SUFFIX)) {
                    return builtin.lookupByName(host, policy);
                }
                LOOKUPS.computeIfAbsent(host, h -> new AtomicInteger()).incrementAndGet();
                if (host.startsWith("lo-")) {
                    return Stream.of(InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1}));
                }
                if (host.startsWith("hung-")) {
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                throw new UnknownHostException(host);
            }

            @Override
            public String lookupByAddress(byte[] address) throws UnknownHostException {
                return builtin.lookupByAddress(address);
            }
        };
    }

    @Override
    public String name() {
        return "pylon-test-names";
    }
}
