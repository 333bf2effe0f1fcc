package io.pylon.manager.portal;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** The origin a browser sends for a page of a URL: {@code scheme://host[:port]}, the scheme's default port left out. */
final class WebOrigin {
    private WebOrigin() {
    }

    /** Null when the text is no http(s) URL with a host. */
    static String of(String url) {
        try {
            URI uri = new URI(url.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                return null;
            }
            int port = uri.getPort();
            boolean defaultPort = port == -1 || (scheme.equals("http") && port == 80)
                    || (scheme.equals("https") && port == 443);
            return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
