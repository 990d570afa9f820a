package io.jobinfo.store.lifecycle;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.time.Clock;

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

    /**
     * How deleters claim job ids of {@code map} (see {@link DeleteClaims}): {@link LockClaims} in the side map a format
     * names for it ({@link JobValueFormat#claimLocksMap}: SeaTunnel's map, whose every value its members read
     * as {@code JobInfo}), else {@link MarkerClaims} in the map. Under a lock, an id counts as in use while its value is a
     * pointer (bare or wrapped) or cannot be read here.
     *
     * @param owner who deletes, named in markers ({@code gc}, {@code migrate})
     */
    public DeleteClaims deleteClaims(HazelcastInstance hazelcast, IMap<Long, ?> map, String owner, Clock clock) {
        MapValueReader reader = new MapValueReader(map, this);
        for (JobValueFormat f : formats) {
            String locks = f.claimLocksMap(hazelcast, map, reader);
            if (locks != null) {
                return new LockClaims(hazelcast, locks, map.getName(), jobId -> {
                    MapValue v = reader.read(jobId);
                    return !v.absent() && (!v.decoded() || pointerOf(v.value()) != null);
                }, CLAIM_LOCK_WAIT_MILLIS);
            }
        }
        return new MarkerClaims(map, owner, clock);
    }

    /** How long a tool's delete waits for the claim lock of an id that a move or another delete holds. */
    static final long CLAIM_LOCK_WAIT_MILLIS = 10_000;

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
