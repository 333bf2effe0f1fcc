package io.pylon.core.discovery;

import io.pylon.core.config.SettingType;

import java.net.URI;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** One {@code name=url} pair of static discovery. */
public record StaticPeer(String podName, URI baseUrl) {

    static final SettingType<List<StaticPeer>> LIST_TYPE = new SettingType<>(
            "comma-separated name=url pairs with distinct names (worker-0=http://127.0.0.4:8091)", StaticPeer::parseList);

    static List<StaticPeer> parseList(String raw) {
        List<StaticPeer> peers = Arrays.stream(raw.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .map(StaticPeer::parse).toList();
        Set<String> names = new HashSet<>();
        for (StaticPeer peer : peers) {
            if (!names.add(peer.podName())) {
                throw new IllegalArgumentException("duplicate pod name " + peer.podName());
            }
        }
        return peers;
    }

    static StaticPeer parse(String pair) {
        int eq = pair.indexOf('=');
        if (eq <= 0 || eq == pair.length() - 1) {
            throw new IllegalArgumentException(pair);
        }
        String name = pair.substring(0, eq).strip();
        URI url = URI.create(stripSlash(pair.substring(eq + 1).strip()));
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme()) || url.getHost() == null) {
            throw new IllegalArgumentException(pair);
        }
        return new StaticPeer(name, url);
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
