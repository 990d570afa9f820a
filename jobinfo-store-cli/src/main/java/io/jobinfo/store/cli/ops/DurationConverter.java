package io.jobinfo.store.cli.ops;

import io.jobinfo.store.cli.convert.ParsingConverter;
import io.jobinfo.store.config.Durations;
import java.time.Duration;

/**
 * Reads a duration option with the project's one duration syntax ({@link Durations}: {@code 500ms}, {@code 30s},
 * {@code 5m}, {@code 1h}, {@code 2d}, {@code 1h30m}; ISO-8601 {@code PT1H} too), the same as the YAML configuration.
 */
public final class DurationConverter extends ParsingConverter<Duration> {

    @Override
    protected Duration parse(String value) {
        return Durations.parse(value);
    }

    /** {@code 1h2m3s}-style text for reports; {@link #convert} reads it back. */
    static String format(Duration d) {
        return Durations.format(d);
    }
}
