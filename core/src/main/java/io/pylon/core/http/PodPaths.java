package io.pylon.core.http;

/**
 * The path grammar of a pod, the one place that knows it: everything a pod serves for the platform lives under
 * {@code /<segment>} ({@code pylon.path.segment}, {@code platform} by default):
 * {@code /<segment>/management/health}, {@code .../health/live}, {@code .../health/ready},
 * {@code /<segment>/management/version}, {@code /<segment>/management/metrics} and
 * {@code /<segment>/diagnostics/<name>}. Servers register these paths and
 * clients (peers, the Manager's console, {@code pylon up}) build their URLs from them, so a non-default segment is
 * honoured on both sides. Immutable; the paths are built once.
 */
public final class PodPaths {
    /** The segment when {@code pylon.path.segment} is not set. */
    public static final String DEFAULT_SEGMENT = "platform";

    private static final PodPaths DEFAULT = new PodPaths(DEFAULT_SEGMENT);

    private final String segment;
    private final String root;
    private final String management;
    private final String health;
    private final String version;
    private final String metrics;
    private final String diagnostics;

    private PodPaths(String segment) {
        this.segment = segment;
        this.root = "/" + segment;
        this.management = root + "/management";
        this.health = management + "/health";
        this.version = management + "/version";
        this.metrics = management + "/metrics";
        this.diagnostics = root + "/diagnostics";
    }

    /** The paths under {@code /<segment>}; the segment is one path segment (letters, digits, '.', '-', '_'). */
    public static PodPaths of(String segment) {
        if (DEFAULT_SEGMENT.equals(segment)) {
            return DEFAULT;
        }
        if (!isSegment(segment)) {
            throw new IllegalArgumentException("Not a path segment of letters, digits, '.', '-' or '_': '"
                    + (segment == null ? "null" : segment.replaceAll("\\p{Cntrl}", "?")) + "'");
        }
        return new PodPaths(segment);
    }

    /** The paths under {@code /platform}. */
    public static PodPaths defaults() {
        return DEFAULT;
    }

    public String segment() {
        return segment;
    }

    /** {@code /<segment>}: the root of everything the platform itself serves. */
    public String root() {
        return root;
    }

    /** Whether a request path is the platform's own ({@code /<segment>} or under it), never a gateway route's. */
    public boolean isReserved(String path) {
        return path.startsWith(root) && (path.length() == root.length() || path.charAt(root.length()) == '/');
    }

    /** {@code /<segment>/management} */
    public String management() {
        return management;
    }

    /** {@code /<segment>/management/health}: every check. */
    public String health() {
        return health;
    }

    /** {@code /<segment>/management/health/live}: the liveness probe. */
    public String live() {
        return health + "/live";
    }

    /** {@code /<segment>/management/health/ready}: the readiness probe. */
    public String ready() {
        return health + "/ready";
    }

    /** {@code /<segment>/management/version} */
    public String version() {
        return version;
    }

    /** {@code /<segment>/management/metrics}: the Prometheus scrape endpoint. */
    public String metrics() {
        return metrics;
    }

    /** {@code /<segment>/diagnostics}: the base of the diagnostics names. */
    public String diagnostics() {
        return diagnostics;
    }

    /** {@code /<segment>/diagnostics/<name>}; the name is used as given (it is one of the pod's section names). */
    public String diagnostics(String name) {
        return diagnostics + "/" + name;
    }

    /** {@code /<segment>/diagnostics/<name>/<item>}: one item of a name ({@code postmortem/<capture id>}). */
    public String diagnostics(String name, String item) {
        return diagnostics(name) + "/" + item;
    }

    private static boolean isSegment(String segment) {
        if (segment == null || segment.isEmpty()) {
            return false;
        }
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            boolean plain = c < 128 && Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '_';
            if (!plain) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return root;
    }
}
