package io.pylon.distribution;

import io.pylon.core.config.Setting;
import io.pylon.core.pod.CoreSettings;
import io.pylon.core.server.PodServer;
import io.pylon.core.server.PylonModule;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Prints every setting as the Markdown table the README holds: the pod-level ones every module reads, then each
 * module's (what {@link PodServer#settingsOf} validates at start-up, so diagnostics, discovery and broadcast too).
 */
@Command(name = "settings", description = "Prints every setting of every module as a Markdown table.")
final class SettingsCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.out.print(table());
        return 0;
    }

    static String table() {
        Map<String, Row> rows = new LinkedHashMap<>();
        for (Setting<?> setting : PodServer.podSettings(0)) {
            String def = setting.key().equals("pylon.server.port") ? "module's internal port" : show(setting.defaultValue());
            rows.put(setting.key(), new Row(setting, "all", def));
        }
        for (PylonModule module : Modules.all()) {
            for (Setting<?> setting : PodServer.settingsOf(module)) {
                Row existing = rows.get(setting.key());
                if (existing != null && existing.modules.equals("all")) {
                    continue;
                }
                rows.merge(setting.key(), new Row(setting, module.name(), show(setting.defaultValue())),
                        (a, b) -> new Row(a.setting, a.modules + ", " + b.modules, a.defaultValue));
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("| Environment variable | System property | Modules | Default | Expects | Meaning |\n");
        out.append("|---|---|---|---|---|---|\n");
        for (Row row : rows.values()) {
            out.append("| `").append(row.setting.envName()).append("` | `").append(row.setting.key()).append("` | ")
                    .append(row.modules).append(" | ").append(row.defaultValue).append(" | ")
                    .append(row.setting.expected()).append(" | ").append(row.setting.description().replace("|", "\\|"))
                    .append(" |\n");
        }
        return out.toString();
    }

    private record Row(Setting<?> setting, String modules, String defaultValue) {
    }

    private static String show(@Nullable Object value) {
        if (value == null) {
            return "(unset)";
        }
        if (value instanceof Duration d) {
            return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
        }
        if (value instanceof java.util.Collection<?> c) {
            return c.isEmpty() ? "(empty)" : "`" + String.join(",", c.stream().map(String::valueOf).toList()) + "`";
        }
        return "`" + value + "`";
    }
}
