package io.pylon.core.broadcast;

import io.pylon.core.http.PodPaths;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The address of a diagnostics name on another pod, with the caller's query parameters passed on. */
final class PeerUri {
    /** Parameters that steer this pod's routing and are never passed on. */
    private static final Set<String> ROUTING = Set.of("pod", "internal");

    private PeerUri() {
    }

    /**
     * {@code <base>/<segment>/diagnostics/<name>?internal=true&<the caller's other parameters>}; with
     * {@code internal=false} (heap dumps, where it does not apply) the parameter is left out.
     */
    static URI of(URI base, PodPaths paths, String name, Map<String, List<String>> query, boolean internal) {
        StringBuilder uri = new StringBuilder(base.toString());
        if (uri.charAt(uri.length() - 1) == '/') {
            uri.setLength(uri.length() - 1);
        }
        uri.append(paths.diagnostics(name));
        char separator = '?';
        if (internal) {
            uri.append("?internal=true");
            separator = '&';
        }
        for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
            if (ROUTING.contains(parameter.getKey()) || !isToken(parameter.getKey())) {
                continue;
            }
            for (String value : parameter.getValue()) {
                uri.append(separator).append(parameter.getKey()).append('=')
                        .append(URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20"));
                separator = '&';
            }
        }
        return URI.create(uri.toString());
    }

    // Names are passed on verbatim, so only plain ones are: a name needing escapes is no parameter a pod reads.
    private static boolean isToken(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '_' || c == '.')) {
                return false;
            }
        }
        return true;
    }
}
