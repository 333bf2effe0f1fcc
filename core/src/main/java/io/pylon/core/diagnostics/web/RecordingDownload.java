package io.pylon.core.diagnostics.web;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import io.pylon.core.diagnostics.FlightRecordings;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Streams a finished flight recording ({@code GET jfr?download=<id>}, {@code compress=gzip} on request) and removes
 * it once the whole file went out: a recording is downloaded once. A broken download leaves it for another try until
 * its retention time.
 */
final class RecordingDownload {
    private static final System.Logger LOG = System.getLogger(RecordingDownload.class.getName());
    private static final int BUFFER = 64 * 1024;

    private RecordingDownload() {
    }

    static void send(ServerResponse res, FlightRecordings recordings, String id, boolean gzip, String podName) {
        Path file = recordings.finishedFile(id);
        String filename = podName.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + id + (gzip ? ".jfr.gz" : ".jfr");
        try (InputStream in = Files.newInputStream(file)) {
            res.status(Status.OK_200);
            res.header(HeaderNames.CONTENT_TYPE, "application/octet-stream");
            res.header(HeaderNames.CONTENT_DISPOSITION, "attachment; filename=\"" + filename + "\"");
            res.header(HeaderNames.CACHE_CONTROL, "no-store");
            if (!gzip) {
                res.header(HeaderNames.CONTENT_LENGTH, String.valueOf(Files.size(file)));
            }
            try (OutputStream out = gzip ? new GZIPOutputStream(res.outputStream(), BUFFER) : res.outputStream()) {
                in.transferTo(out);
            }
            recordings.downloaded(id);
        } catch (IOException | UncheckedIOException e) {
            LOG.log(System.Logger.Level.INFO, "Download of recording " + id + " ended early: " + e.getClass().getSimpleName());
        }
    }
}
