package io.jobinfo.store.ops;

import static io.jobinfo.store.values.ValueLists.copyOf;

import com.google.auto.value.AutoValue;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@link Migrator} run found and did.
 */
@AutoValue
public abstract class MigrationReport {
    MigrationReport() {
    }

    /**
     * @param direction        migrate (inline to pointer) or rollback (pointer to inline)
     * @param dryRun           {@code true}: nothing was written; {@link #converted()} counts what would have been
     * @param mapName          the job map
     * @param storeId          the store blobs were written to or read from
     * @param scanned          keys in the map when the run started
     * @param converted        entries this run turned into pointers (or back into inline values)
     * @param payloadBytes     payload bytes of the converted entries (written to, or read from, the store)
     * @param heapFreedPerCopy serialized value bytes the map holds less than before, for one copy of each entry
     * (negative for a rollback): inline value size minus pointer size, summed
     * @param copies           copies the cluster keeps of each entry (owner plus backups) for {@link #clusterHeapFreed()}
     * @param skipped          entries left as they were, each with its reason (none of them is a problem)
     * @param failed           entries that could not be converted, each with its reason; still inline or a valid
     *                         pointer
     * @param notProcessed     keys not examined because the run was cancelled
     * @param retries          compare-and-set attempts repeated because the entry changed meanwhile
     * @param duration         how long the run took
     * @param cancelled        the run was cancelled (interrupted) before it examined every key
     */
    public static MigrationReport of(Migrator.Direction direction, boolean dryRun, String mapName, String storeId,
            int scanned, int converted, long payloadBytes, long heapFreedPerCopy, int copies,
            List<Migrator.EntryResult> skipped, List<Migrator.EntryResult> failed, int notProcessed, int retries,
            Duration duration, boolean cancelled) {
        return new AutoValue_MigrationReport(direction, dryRun, mapName, storeId, scanned, converted, payloadBytes,
                heapFreedPerCopy, copies, copyOf(skipped), copyOf(failed), notProcessed, retries, duration, cancelled);
    }

    public abstract Migrator.Direction direction();

    public abstract boolean dryRun();

    public abstract String mapName();

    public abstract String storeId();

    public abstract int scanned();

    public abstract int converted();

    public abstract long payloadBytes();

    public abstract long heapFreedPerCopy();

    public abstract int copies();

    public abstract List<Migrator.EntryResult> skipped();

    public abstract List<Migrator.EntryResult> failed();

    public abstract int notProcessed();

    public abstract int retries();

    public abstract Duration duration();

    public abstract boolean cancelled();

    /** Estimated cluster heap freed: {@link #heapFreedPerCopy()} times {@link #copies()}. Negative for a rollback. */
    public long clusterHeapFreed() {
        return heapFreedPerCopy() * copies();
    }

    /** Skipped entries counted by reason, in first-seen order. */
    public Map<Migrator.Reason, Integer> skippedByReason() {
        Map<Migrator.Reason, Integer> counts = new LinkedHashMap<>();
        for (Migrator.EntryResult r : skipped()) {
            counts.merge(r.reason(), 1, Integer::sum);
        }
        return counts;
    }

    /** Nothing failed and every key was examined. */
    public boolean complete() {
        return failed().isEmpty() && !cancelled() && notProcessed() == 0;
    }
}
