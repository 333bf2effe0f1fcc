package io.pylon.worker.routes;

import io.pylon.gateway.model.InvalidProxyException;
import io.pylon.gateway.model.KnownProxies;
import io.pylon.gateway.model.ProxyParser;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The routes in force and the file they come from. {@link #reloadIfChanged()} (run periodically on the maintenance
 * executor) compares the file's bytes with the last ones seen, so an edit in place, a rename over it or a Kubernetes
 * ConfigMap's symlink swap are all noticed; a file that fails validation is refused, logged once per content, and the
 * routes in force stay. The table is swapped atomically: a request in flight keeps the route it matched.
 *
 * <p>Threading: {@link #reloadIfChanged()} holds this object's monitor (start-up and the maintenance executor may both
 * call it); request threads read the table through an atomic reference without the lock, and diagnostics threads read
 * the reload status from volatile fields (each written only under the lock).
 */
public final class RoutesFile {
    private static final System.Logger LOG = System.getLogger(RoutesFile.class.getName());

    private final Path file;
    private final ProxyParser parser;
    private final KnownProxies known = new KnownProxies(); // guarded by this, like the reload
    private final RouteTable.Listener onLoad;
    private final AtomicReference<RouteTable> table = new AtomicReference<>(RouteTable.empty());
    private byte[] installed;
    private byte[] refused;
    private volatile Instant loadedAt;
    private volatile String lastError;
    private volatile Instant lastErrorAt;
    private volatile long reloads;
    private volatile long refusals;

    /** @param file null when no routes file is configured: the table stays empty */
    public RoutesFile(Path file, ProxyParser parser, RouteTable.Listener onLoad) {
        this.file = file;
        this.parser = parser;
        this.onLoad = onLoad;
    }

    /** Loads the file at start-up; an invalid or missing file stops the pod with the reason. */
    public synchronized void loadInitial() throws InvalidProxyException {
        if (file == null) {
            onLoad.loading(table.get());
            return;
        }
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new InvalidProxyException("The routes file " + file + " cannot be read ("
                    + e.getClass().getSimpleName() + ").");
        }
        install(content);
    }

    public RouteTable current() {
        return table.get();
    }

    /** Reloads when the bytes differ from the last ones seen; returns whether a new table is in force. */
    public synchronized boolean reloadIfChanged() {
        if (file == null) {
            return false;
        }
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            refuse(null, "The routes file " + file + " is missing; the routes in force stay.");
            return false;
        } catch (IOException e) {
            refuse(null, "The routes file " + file + " cannot be read (" + e.getClass().getSimpleName()
                    + "); the routes in force stay.");
            return false;
        }
        if (Arrays.equals(content, installed)) {
            lastError = null;
            lastErrorAt = null;
            return false;
        }
        if (Arrays.equals(content, refused)) {
            return false;
        }
        try {
            install(content);
            LOG.log(Level.INFO, "Routes reloaded from " + file + ": " + table.get().size() + " route(s)");
            return true;
        } catch (InvalidProxyException e) {
            refuse(content, "Routes file " + file + " refused, the routes in force stay: " + e.getMessage());
            return false;
        }
    }

    private void install(byte[] content) throws InvalidProxyException {
        boolean json = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
        RouteTable next;
        try {
            next = new RouteTable(parser.parse(content, json, known).routes());
            onLoad.loading(next);
        } catch (InvalidProxyException | RuntimeException e) {
            known.refused();
            throw e;
        }
        table.set(next);
        known.applied();
        installed = content;
        refused = null;
        loadedAt = Instant.now();
        lastError = null;
        lastErrorAt = null;
        reloads++;
    }

    // Logs a refusal once per content seen, not on every poll.
    private void refuse(byte[] content, String message) {
        refused = content;
        if (!message.equals(lastError)) {
            refusals++; // written under this object's monitor (reloadIfChanged), read by metrics
            lastError = message;
            lastErrorAt = Instant.now();
            LOG.log(Level.WARNING, message);
        }
    }

    /** Tables installed from the file, the first load included. */
    public long loads() {
        return reloads;
    }

    /** Contents (or read errors) refused, each counted once however often it is polled. */
    public long refusals() {
        return refusals;
    }

    /** The file's state for diagnostics: where, how many routes, when loaded, the last refusal. */
    public Map<String, Object> describe() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("file", file == null ? null : file.toString());
        map.put("count", table.get().size());
        map.put("loadedAt", loadedAt == null ? null : loadedAt.toString());
        map.put("loads", reloads);
        map.put("lastError", lastError);
        map.put("lastErrorAt", lastErrorAt == null ? null : lastErrorAt.toString());
        return map;
    }
}
