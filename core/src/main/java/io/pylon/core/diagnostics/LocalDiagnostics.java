package io.pylon.core.diagnostics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.pylon.core.http.Json;
import io.pylon.core.pod.PodIdentity;
import org.jspecify.annotations.Nullable;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * This pod's own diagnostics: the single-pod object of {@code ?internal=true} for every name. What a broadcast
 * collects from each pod is exactly {@link #answer(String)}. Knows nothing of HTTP; the heap dump, which is a stream
 * rather than an object, is the {@link HeapDumper}'s.
 *
 * <p>Threading: called concurrently by request threads and broadcast threads; it holds no mutable state of its own
 * (the registry and the heavy-call limit are thread-safe, and sections are called concurrently, see
 * {@link DiagnosticSection}).
 */
public final class LocalDiagnostics {
    public static final String ALL = "all";
    public static final String HEAPDUMP = "heapdump";
    /** Broadcast only: answered by the endpoint from every pod's {@code all?sections=...}, never by one pod. */
    public static final String COMPARE = "compare";
    /** The parameter of {@code all} that picks some of its sections ({@code sections=jvm,threads}). */
    public static final String SECTIONS = "sections";
    public static final String GET = "GET";
    /**
     * The query parameter naming who asked, for the rate of heavy calls: set by the endpoint (the Manager's user, else
     * the calling address) and passed on with the other parameters to every pod of a broadcast.
     */
    public static final String CALLER = "caller";

    private static final System.Logger LOG = System.getLogger(LocalDiagnostics.class.getName());

    private final PodIdentity identity;
    private final DiagnosticsRegistry registry;
    private final ConcurrencyLimit heavy;
    private final HeavyCallRate rate;
    private final List<Runnable> refusalListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    LocalDiagnostics(PodIdentity identity, DiagnosticsRegistry registry, ConcurrencyLimit heavy) {
        this(identity, registry, heavy, new HeavyCallRate(Integer.MAX_VALUE, Integer.MAX_VALUE, System::nanoTime));
    }

    LocalDiagnostics(PodIdentity identity, DiagnosticsRegistry registry, ConcurrencyLimit heavy, HeavyCallRate rate) {
        this.identity = identity;
        this.registry = registry;
        this.heavy = heavy;
        this.rate = rate;
    }

    public PodIdentity identity() {
        return identity;
    }

    /** Every name this pod answers: its sections, their aliases, {@code heapdump}, {@code all} and {@code compare}. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        List<String> aliases = new ArrayList<>();
        for (DiagnosticSection section : registry.all()) {
            names.add(section.name());
            aliases.addAll(section.aliases().stream().sorted().toList());
        }
        names.addAll(aliases);
        names.add(HEAPDUMP);
        names.add(ALL);
        names.add(COMPARE);
        return names;
    }

    public boolean offers(String name) {
        return HEAPDUMP.equals(name) || ALL.equals(name) || COMPARE.equals(name) || registry.find(name).isPresent();
    }

    /** The names of the sections that {@code all} includes on this pod. */
    public List<String> sectionsInAll() {
        return registry.all().stream().filter(DiagnosticSection::inAll).map(DiagnosticSection::name).toList();
    }

    /**
     * The complete single-pod object for a name other than {@code heapdump}: the envelope, then the section (or every
     * section for {@code all}), then {@code responseTime}.
     *
     * @throws NoSuchElementException   when the pod does not offer the name
     * @throws DiagnosticsBusyException when the name is heavy and the pod builds as many heavy answers as it allows
     * @throws SectionFailedException   when the one section asked for could not be collected
     */
    public ObjectNode answer(String name) {
        return answer(GET, name, DiagnosticsQuery.EMPTY);
    }

    /**
     * The single-pod object of a call: a read ({@code GET}) with its query parameters, or a change ({@code PUT},
     * {@code DELETE}...) that the section offers; both answer the same envelope.
     *
     * @throws InvalidParameterException     for a bad parameter
     * @throws UnsupportedOperationException when the section takes no such method
     */
    public ObjectNode answer(String method, String name, DiagnosticsQuery query) {
        long t0 = System.nanoTime();
        ObjectNode node = envelope();
        if (ALL.equals(name)) {
            if (!GET.equals(method)) {
                throw new UnsupportedOperationException(name + " takes no " + method);
            }
            List<DiagnosticSection> sections = sectionsOfAll(query);
            // 'all' counts as heavy, unless its sections=... picks only light ones (what 'compare' asks every pod)
            boolean light = query.text(SECTIONS).isPresent() && sections.stream().noneMatch(s -> s.heavy(query));
            if (!light) {
                rate.admit(caller(query));
            }
            try (ConcurrencyLimit.Permit permit = light ? null : enterHeavy()) {
                for (DiagnosticSection section : sections) {
                    node.set(section.key(), collectOrError(section, query));
                }
            }
        } else {
            DiagnosticSection section = registry.find(name)
                    .orElseThrow(() -> new NoSuchElementException("no diagnostics named '" + name + "' on this pod"));
            String key = name.equals(section.name()) ? section.key() : name;
            if (!GET.equals(method)) {
                if (!section.changes().contains(method)) {
                    throw new UnsupportedOperationException(name + " takes no " + method);
                }
                section.validate(method, query);
                if (section.rateLimited(method, query)) {
                    rate.admit(caller(query));
                }
                node.set(key, toJson(section, () -> section.change(method, query)));
            } else if (section.heavy(query)) {
                section.validate(method, query);
                if (section.rateLimited(method, query)) {
                    rate.admit(caller(query));
                }
                try (ConcurrencyLimit.Permit permit = enterHeavy()) {
                    node.set(key, collect(section, query));
                }
            } else {
                section.validate(method, query);
                node.set(key, collect(section, query));
            }
        }
        node.put("responseTime", Math.round((System.nanoTime() - t0) / 1_000.0) / 1_000.0);
        return node;
    }

    /**
     * Refuses (429) a call that this pod would refuse for the rate of heavy calls, taking nothing: a broadcast or a
     * forward is refused before any pod is asked. A bad name or parameter passes (the validation answers it).
     */
    public void checkRate(String method, String name, DiagnosticsQuery query) {
        boolean limited;
        if (ALL.equals(name)) {
            try {
                limited = GET.equals(method) && !(query.text(SECTIONS).isPresent()
                        && sectionsOfAll(query).stream().noneMatch(s -> s.heavy(query)));
            } catch (InvalidParameterException e) {
                return;
            }
        } else {
            limited = registry.find(name).map(s -> s.rateLimited(method, query)).orElse(false);
        }
        if (limited) {
            rate.check(caller(query));
        }
    }

    private static String caller(DiagnosticsQuery query) {
        return query.text(CALLER).orElse("unnamed");
    }

    /** Calls {@code listener} (on the refused request's thread, so it must be quick) each time a heavy call gets 429. */
    public void onHeavyRefused(Runnable listener) {
        refusalListeners.add(listener);
    }

    /**
     * One section's content for the black box, outside the heavy-call limit (the black box rate-limits itself, and it
     * must capture exactly when callers are being refused); {@code null} when the pod has no such section.
     *
     * @throws SectionFailedException when the section could not be collected
     */
    public @Nullable JsonNode collectUnlimited(String name, DiagnosticsQuery query) {
        return registry.find(name).map(section -> collect(section, query)).orElse(null);
    }

    private ConcurrencyLimit.Permit enterHeavy() {
        try {
            return heavy.enter();
        } catch (DiagnosticsBusyException e) {
            for (Runnable listener : refusalListeners) {
                listener.run();
            }
            throw e;
        }
    }

    /** A section that a broadcast of some name summarises, with the key its content has in that name's answers. */
    public record Aggregation(String key, DiagnosticSection section) {
    }

    /** The sections a broadcast of {@code name} summarises across pods: none for most names. */
    public List<Aggregation> aggregations(String name) {
        List<Aggregation> aggregations = new java.util.ArrayList<>();
        if (ALL.equals(name)) {
            for (DiagnosticSection section : registry.all()) {
                if (section.inAll() && section.aggregates()) {
                    aggregations.add(new Aggregation(section.key(), section));
                }
            }
        } else {
            registry.find(name).filter(DiagnosticSection::aggregates).ifPresent(section ->
                    aggregations.add(new Aggregation(name.equals(section.name()) ? section.key() : name, section)));
        }
        return aggregations;
    }

    /** The envelope alone: who answers (podName, podIp, namespace, nodeName, envName, module, version). */
    public ObjectNode envelope() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("podName", identity.podName());
        node.put("podIp", identity.podIp());
        node.put("namespace", identity.namespace());
        node.put("nodeName", identity.nodeName());
        node.put("envName", identity.envName());
        node.put("module", identity.module());
        node.put("version", identity.version());
        return node;
    }

    /**
     * Checks a call's method and parameters without answering it (before a broadcast).
     *
     * @throws NoSuchElementException        for a name the pod does not offer
     * @throws UnsupportedOperationException for a method the name does not take
     * @throws InvalidParameterException     for a bad parameter
     */
    public void validate(String method, String name, DiagnosticsQuery query) {
        if (ALL.equals(name) || HEAPDUMP.equals(name) || COMPARE.equals(name)) {
            if (!GET.equals(method)) {
                throw new UnsupportedOperationException(name + " takes no " + method);
            }
            if (ALL.equals(name)) {
                for (DiagnosticSection section : sectionsOfAll(query)) {
                    section.validate(method, query);
                }
            }
            return;
        }
        DiagnosticSection section = registry.find(name)
                .orElseThrow(() -> new NoSuchElementException("no diagnostics named '" + name + "' on this pod"));
        if (!GET.equals(method) && !section.changes().contains(method)) {
            throw new UnsupportedOperationException(name + " takes no " + method);
        }
        section.validate(method, query);
    }

    /** The methods a name takes: GET and the section's changes, for {@code Allow}. */
    public List<String> methods(String name) {
        List<String> methods = new ArrayList<>(List.of(GET));
        registry.find(name).ifPresent(section -> section.changes().stream().sorted().forEach(methods::add));
        return methods;
    }

    /**
     * The sections of an {@code all} answer: every section in {@code all}, or those that {@code sections=a,b} names.
     *
     * @throws InvalidParameterException for a name that is not a section of {@code all} on this pod
     */
    private List<DiagnosticSection> sectionsOfAll(DiagnosticsQuery query) {
        List<DiagnosticSection> inAll = registry.all().stream().filter(DiagnosticSection::inAll).toList();
        java.util.Optional<String> picked = query.text(SECTIONS);
        if (picked.isEmpty()) {
            return inAll;
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (String part : picked.get().split(",")) {
            String wanted = part.strip();
            if (inAll.stream().noneMatch(s -> s.name().equals(wanted))) {
                throw new InvalidParameterException(SECTIONS, "The query parameter 'sections' must name sections of 'all', "
                        + "comma-separated: " + String.join(", ", inAll.stream().map(DiagnosticSection::name).toList())
                        + ".");
            }
            names.add(wanted);
        }
        return inAll.stream().filter(s -> names.contains(s.name())).toList();
    }

    private interface Content {
        Object get() throws Exception;
    }

    private static JsonNode collect(DiagnosticSection section, DiagnosticsQuery query) {
        return toJson(section, () -> section.collect(query));
    }

    private static JsonNode toJson(DiagnosticSection section, Content content) {
        Object value;
        try {
            value = content.get();
        } catch (DiagnosticsBusyException | InvalidParameterException | DiagnosticsRefusedException e) {
            throw e;
        } catch (Exception | LinkageError e) {
            throw new SectionFailedException(section.name(), e);
        }
        if (value instanceof JsonNode json) {
            return json;
        }
        if (value instanceof String text) {
            return TextNode.valueOf(text);
        }
        return Json.MAPPER.valueToTree(value);
    }

    // In 'all' one broken section must not hide the others: it gets an error object in place of its content.
    private static JsonNode collectOrError(DiagnosticSection section, DiagnosticsQuery query) {
        try {
            return collect(section, query);
        } catch (SectionFailedException e) {
            LOG.log(Level.WARNING, e.getMessage());
            ObjectNode error = Json.MAPPER.createObjectNode();
            error.putObject("error").put("status", 500).put("message", e.getMessage());
            return error;
        }
    }
}
