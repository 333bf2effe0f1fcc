package io.pylon.core.storage;

import io.pylon.core.config.Setting;
import io.pylon.core.config.SettingType;

import java.util.List;

/** The data directory's budget: how much the pod may write there, and how much each kind of file may take. */
public final class StorageSettings {
    private StorageSettings() {
    }

    public static final Setting<Long> BUDGET = Setting.of("pylon.data.budget",
            "Most bytes the pod keeps in its data directory at once: flight recordings (with the JFR repository), heap "
                    + "dumps, thread dump files, black-box captures and the gateway's saved configuration all count; a "
                    + "request that would pass it is answered 507 naming the budget. Kubernetes: set it below the data "
                    + "emptyDir's sizeLimit (the kubelet evicts the pod past that), as the manifests do.",
            2L << 30, SettingType.byteSize(16L << 20, 1L << 50));

    public static final Setting<Integer> RECORDINGS_MAX_COUNT = Setting.of("pylon.data.recordings.max-count",
            "Most flight recordings (running and finished) the pod keeps in its data directory.", 10,
            SettingType.intRange(1, 1000));

    public static final Setting<Long> RECORDINGS_MAX_BYTES = Setting.of("pylon.data.recordings.max-bytes",
            "Most bytes flight recordings take in the data directory together (a running one counts its maxSizeMb); "
                    + "also the largest maxSizeMb a recording may ask for. Never more than pylon.data.budget.",
            512L << 20, SettingType.byteSize(1L << 20, 1L << 50));

    public static final Setting<Boolean> EVICT_RECORDINGS = Setting.of("pylon.data.recordings.evict-oldest",
            "Whether finished flight recordings are removed, oldest first, to make room when a recording, heap dump or "
                    + "other file would not fit in the budget; false: the new request is refused with 507 instead.",
            true, SettingType.BOOLEAN);

    public static List<Setting<?>> all() {
        return List.of(BUDGET, RECORDINGS_MAX_COUNT, RECORDINGS_MAX_BYTES, EVICT_RECORDINGS);
    }
}
