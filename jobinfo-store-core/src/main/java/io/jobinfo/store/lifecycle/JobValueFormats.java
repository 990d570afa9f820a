package io.jobinfo.store.lifecycle;

import io.jobinfo.store.lifecycle.JobInfoPointer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The value formats a run accepts, in order: a map value belongs to the first format that recognises it, and a
 * rollback restores a pointer as the first format that restores its codec id. Immutable.
 */
public final class JobValueFormats {

    private final List<JobValueFormat> formats;

    private JobValueFormats(List<JobValueFormat> formats) {
        if (formats.isEmpty()) {
            throw new IllegalArgumentException("at least one value format is needed");
        }
        for (JobValueFormat f : formats) {
            Objects.requireNonNull(f, "format");
        }
        this.formats = Collections.unmodifiableList(new ArrayList<>(formats));
    }

    /** The given formats, most specific first. */
    public static JobValueFormats of(JobValueFormat... formats) {
        return new JobValueFormats(Arrays.asList(formats));
    }

    /** The given formats, most specific first. */
    public static JobValueFormats of(List<JobValueFormat> formats) {
        return new JobValueFormats(formats);
    }

    /** Only this library's {@code InlineJobInfo}: the default. */
    public static JobValueFormats inlineOnly() {
        return of(new InlineJobInfoFormat());
    }

    public List<JobValueFormat> formats() {
        return formats;
    }

    /** The format of {@code value}, or {@code null} when none recognises it (a pointer, or an unknown value). */
    public JobValueFormat forValue(Object value) {
        if (value == null) {
            return null;
        }
        for (JobValueFormat f : formats) {
            if (f.recognises(value)) {
                return f;
            }
        }
        return null;
    }

    /**
     * The pointer {@code value} is: a bare {@link JobInfoPointer}, or one a format wrapped in its own value class
     * ({@link JobValueFormat#pointerIn}); {@code null} for an inline value, a claim, an unknown value or null.
     */
    public JobInfoPointer pointerOf(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof JobInfoPointer) {
            return (JobInfoPointer) value;
        }
        for (JobValueFormat f : formats) {
            JobInfoPointer p = f.pointerIn(value);
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    /** The format a pointer of {@code codecId} rolls back to, or {@code null} when none restores it. */
    public JobValueFormat forRollback(int codecId) {
        for (JobValueFormat f : formats) {
            if (f.restores(codecId)) {
                return f;
            }
        }
        return null;
    }

    /** The formats' names joined with {@code |}, for messages. */
    public String names() {
        StringBuilder b = new StringBuilder();
        for (JobValueFormat f : formats) {
            b.append(b.length() == 0 ? "" : "|").append(f.name());
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return "JobValueFormats[" + names() + "]";
    }
}
