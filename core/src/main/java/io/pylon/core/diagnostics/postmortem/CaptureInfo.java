package io.pylon.core.diagnostics.postmortem;

/** One capture as the list shows it: id, trigger, time (ISO-8601 UTC) and its size on disk. */
public record CaptureInfo(String id, String trigger, String time, long sizeBytes) {
    static CaptureInfo of(CaptureId id, long sizeBytes) {
        return new CaptureInfo(id.text(), id.trigger().id(), id.time().toString(), sizeBytes);
    }
}
