package io.pylon.integration.egress;

import io.pylon.core.net.NameLookups;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which hosts http and webhook steps may reach: the entries of {@code pylon.integration.allowed-hosts}. A host name
 * entry ({@code api.example.com}, {@code *.example.com}, or {@code *} for any name) allows the name, but only to
 * public addresses; an IP or CIDR entry allows the addresses in it, internal ones included. Every address a name
 * resolves to is checked, IPv4-mapped IPv6 decoded; one internal address not named by an IP or CIDR entry refuses
 * the whole name (a name that resolves to both is a rebinding attempt or a mistake). No entries: nothing is allowed.
 * Immutable and thread-safe.
 */
public final class EgressGuard {
    private final List<String> names;
    private final List<String> suffixes;
    private final boolean anyName;
    private final List<AddressBlock> blocks;

    private EgressGuard(List<String> names, List<String> suffixes, boolean anyName, List<AddressBlock> blocks) {
        this.names = List.copyOf(names);
        this.suffixes = List.copyOf(suffixes);
        this.anyName = anyName;
        this.blocks = List.copyOf(blocks);
    }

    /** @throws IllegalArgumentException naming an entry that is neither a host name pattern, an IP nor a CIDR block */
    public static EgressGuard of(List<String> entries) {
        List<String> names = new ArrayList<>();
        List<String> suffixes = new ArrayList<>();
        List<AddressBlock> blocks = new ArrayList<>();
        boolean any = false;
        for (String raw : entries) {
            String entry = raw.strip().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) {
                continue;
            }
            String bare = entry.startsWith("[") && entry.endsWith("]") ? entry.substring(1, entry.length() - 1) : entry;
            if (entry.equals("*")) {
                any = true;
            } else if (entry.startsWith("*.") && validName(entry.substring(2))) {
                suffixes.add(entry.substring(1));
            } else if (IpLiteral.looksLike(bare.contains("/") ? bare.substring(0, bare.indexOf('/')) : bare)) {
                blocks.add(AddressBlock.parse(bare));
            } else if (validName(entry)) {
                names.add(entry);
            } else {
                throw new IllegalArgumentException("not a host name, *.domain, IP address or CIDR block: " + raw);
            }
        }
        return new EgressGuard(names, suffixes, any, blocks);
    }

    private static boolean validName(String name) {
        return name.matches("[a-z0-9]([a-z0-9-]{0,62})(\\.[a-z0-9]([a-z0-9-]{0,62}))*\\.?");
    }

    /** Whether no host at all is allowed. */
    public boolean allowsNothing() {
        return !anyName && names.isEmpty() && suffixes.isEmpty() && blocks.isEmpty();
    }

    /**
     * Checks the addresses a host resolved to.
     *
     * @return the same addresses, all allowed
     * @throws EgressRefusedException naming the host and why
     */
    public InetAddress[] check(String host, InetAddress[] resolved) throws EgressRefusedException {
        String name = host.toLowerCase(Locale.ROOT);
        if (name.startsWith("[") && name.endsWith("]")) {
            name = name.substring(1, name.length() - 1);
        }
        boolean nameAllowed = !IpLiteral.looksLike(name) && nameAllowed(name);
        if (resolved.length == 0) {
            throw new EgressRefusedException(host + " resolved to no address");
        }
        for (InetAddress address : resolved) {
            if (inBlocks(address)) {
                continue;
            }
            String internal = Addresses.internalKind(address);
            if (internal != null) {
                throw new EgressRefusedException("egress to " + host + " (" + Addresses.canonical(address).getHostAddress()
                        + ", " + internal + ") is refused: internal addresses need an IP or CIDR entry in "
                        + "pylon.integration.allowed-hosts");
            }
            if (!nameAllowed) {
                throw new EgressRefusedException("egress to " + host + " is refused: not in pylon.integration.allowed-hosts");
            }
        }
        return resolved;
    }

    /**
     * Resolves a host name (or reads an IP literal) within the calling thread's bound ({@link NameLookups}) and checks
     * every address.
     */
    public InetAddress[] resolve(String host) throws UnknownHostException {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return check(host, NameLookups.SHARED.lookUp(bare));
    }

    private boolean nameAllowed(String name) {
        String n = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        if (anyName || names.contains(n)) {
            return true;
        }
        for (String suffix : suffixes) {
            if (n.endsWith(suffix)) {
                return true;
            }
        }
        return false;
    }

    private boolean inBlocks(InetAddress address) {
        for (AddressBlock block : blocks) {
            if (block.contains(address)) {
                return true;
            }
        }
        return false;
    }
}
