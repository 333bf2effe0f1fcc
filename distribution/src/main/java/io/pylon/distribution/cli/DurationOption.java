package io.pylon.distribution.cli;

import io.pylon.core.config.SettingType;
import java.time.Duration;

/** A duration given on the command line ({@code --every 2m}), in the settings' syntax, with a lower bound. */
final class DurationOption {
    private DurationOption() {
    }

    static Duration parse(String value, String option, Duration minimum) {
        try {
            Duration duration = SettingType.DURATION_TYPE.parse(value);
            if (duration.compareTo(minimum) < 0) {
                throw new IllegalArgumentException();
            }
            return duration;
        } catch (IllegalArgumentException e) {
            throw CliException.usage(option + " expects " + SettingType.DURATION_TYPE.expected() + ", at least "
                    + minimum.toMillis() + "ms.");
        }
    }
}
