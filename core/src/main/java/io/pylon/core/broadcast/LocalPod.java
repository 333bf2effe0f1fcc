package io.pylon.core.broadcast;

import io.pylon.core.diagnostics.DiagnosticsBusyException;
import io.pylon.core.diagnostics.DiagnosticsQuery;
import io.pylon.core.diagnostics.DiagnosticsRefusedException;
import io.pylon.core.diagnostics.InvalidParameterException;
import io.pylon.core.diagnostics.LocalDiagnostics;
import io.pylon.core.diagnostics.SectionFailedException;
import io.pylon.core.http.Json;

import java.util.List;
import java.util.NoSuchElementException;

/**
 * This pod's part in a broadcast, read from its diagnostics once, by the endpoint, before the broadcast starts: its
 * name and address (which discovered pod is answered in-process, and the pod listed alone when discovery fails), the
 * sections whose summaries the aggregate of that name carries, the sections its {@code all} offers, and how it answers
 * for itself. That answer is the broadcast's only call into the pod's diagnostics, made on a broadcast thread while
 * the peers are asked; its failures become the same {@link PodFailure}s a peer's would.
 *
 * <p>Immutable; the answer may be called from any thread ({@link LocalDiagnostics} is thread-safe).
 *
 * @param aggregations  the sections a broadcast of this name summarises across pods (none for most names)
 * @param sectionsInAll the names of the sections this pod's {@code all} carries
 */
public record LocalPod(String podName, String podIp, List<LocalDiagnostics.Aggregation> aggregations,
                       List<String> sectionsInAll, Answer answer) {

    /** This pod's single-pod object for a call, as the bytes a peer would send. */
    @FunctionalInterface
    public interface Answer {
        byte[] answer(String method, String name, DiagnosticsQuery query) throws PodFailedException;
    }

    /** What a broadcast of {@code name} needs of {@code local}. */
    public static LocalPod of(LocalDiagnostics local, String name) {
        return new LocalPod(local.identity().podName(), local.identity().podIp(), local.aggregations(name),
                local.sectionsInAll(), (method, asked, query) -> answer(local, method, asked, query));
    }

    private static byte[] answer(LocalDiagnostics local, String method, String name, DiagnosticsQuery query)
            throws PodFailedException {
        try {
            return Json.bytes(local.answer(method, name, query));
        } catch (InvalidParameterException e) {
            throw new PodFailedException(new PodFailure(400, e.getMessage()));
        } catch (DiagnosticsRefusedException e) {
            throw new PodFailedException(new PodFailure(e.status(), e.getMessage()));
        } catch (DiagnosticsBusyException e) {
            throw new PodFailedException(new PodFailure(429, e.getMessage()));
        } catch (SectionFailedException e) {
            throw new PodFailedException(new PodFailure(500, e.getMessage()));
        } catch (NoSuchElementException e) {
            throw new PodFailedException(new PodFailure(404, e.getMessage()));
        }
    }
}
