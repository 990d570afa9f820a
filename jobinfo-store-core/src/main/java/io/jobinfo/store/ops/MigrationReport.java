package io.jobinfo.store.ops;

import io.jobinfo.store.values.ValueObject;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@link Migrator} run found and did.
 */
public final class MigrationReport extends ValueObject {
    private final Migrator.Direction direction;
    private final boolean dryRun;
    private final String mapName;
    private final String storeId;
    private final int scanned;
    private final int converted;
    private final long payloadBytes;
    private final long heapFreedPerCopy;
    private final int copies;
    private final List<Migrator.EntryResult> skipped;
    private final List<Migrator.EntryResult> failed;
    private final int notProcessed;
    private final int retries;
    private final Duration duration;
    private final boolean cancelled;

    /**
     * @param direction        migrate (inline to pointer) or rollback (pointer to inline)
     * @param dryRun           {@code true}: nothing was written; {@link #converted} counts what would have been
     * @param mapName          the job map
     * @param storeId          the store blobs were written to or read from
     * @param scanned          keys in the map when the run started
     * @param converted        entries this run turned into pointers (or back into inline values)
     * @param payloadBytes     payload bytes of the converted entries (written to, or read from, the store)
     * @param heapFreedPerCopy serialized value bytes the map holds less than before, for one copy of each entry
     * (negative for a rollback): inline value size minus pointer size, summed
     * @param copies           copies the cluster keeps of each entry (owner plus backups) for {@link #clusterHeapFreed}
     * @param skipped          entries left as they were, each with its reason (none of them is a problem)
     * @param failed           entries that could not be converted, each with its reason; still inline or a valid
     *                         pointer
     * @param notProcessed     keys not examined because the run was cancelled
     * @param retries          compare-and-set attempts repeated because the entry changed meanwhile
     * @param duration         how long the run took
     * @param cancelled        the run was cancelled (interrupted) before it examined every key
     */
    public MigrationReport(Migrator.Direction direction, boolean dryRun, String mapName, String storeId, int scanned,
            int converted, long payloadBytes, long heapFreedPerCopy, int copies, List<Migrator.EntryResult> skipped,
            List<Migrator.EntryResult> failed, int notProcessed, int retries, Duration duration, boolean cancelled) {
        this.direction = direction;
        this.dryRun = dryRun;
        this.mapName = mapName;
        this.storeId = storeId;
        this.scanned = scanned;
        this.converted = converted;
        this.payloadBytes = payloadBytes;
        this.heapFreedPerCopy = heapFreedPerCopy;
        this.copies = copies;
        this.skipped = listOf(skipped);
        this.failed = listOf(failed);
        this.notProcessed = notProcessed;
        this.retries = retries;
        this.duration = duration;
        this.cancelled = cancelled;
    }

    public Migrator.Direction direction() {
        return direction;
    }

    public boolean dryRun() {
        return dryRun;
    }

    public String mapName() {
        return mapName;
    }

    public String storeId() {
        return storeId;
    }

    public int scanned() {
        return scanned;
    }

    public int converted() {
        return converted;
    }

    public long payloadBytes() {
        return payloadBytes;
    }

    public long heapFreedPerCopy() {
        return heapFreedPerCopy;
    }

    public int copies() {
        return copies;
    }

    public List<Migrator.EntryResult> skipped() {
        return skipped;
    }

    public List<Migrator.EntryResult> failed() {
        return failed;
    }

    public int notProcessed() {
        return notProcessed;
    }

    public int retries() {
        return retries;
    }

    public Duration duration() {
        return duration;
    }

    public boolean cancelled() {
        return cancelled;
    }

    /** Estimated cluster heap freed: {@link #heapFreedPerCopy} times {@link #copies}. Negative for a rollback. */
    public long clusterHeapFreed() {
        return heapFreedPerCopy * copies;
    }

    /** Skipped entries counted by reason, in first-seen order. */
    public Map<Migrator.Reason, Integer> skippedByReason() {
        Map<Migrator.Reason, Integer> counts = new LinkedHashMap<>();
        for (Migrator.EntryResult r : skipped) {
            counts.merge(r.reason(), 1, Integer::sum);
        }
        return counts;
    }

    /** Nothing failed and every key was examined. */
    public boolean complete() {
        return failed.isEmpty() && !cancelled && notProcessed == 0;
    }

    @Override
    protected Object[] components() {
        return new Object[] {"direction", direction, "dryRun", dryRun, "mapName", mapName, "storeId", storeId,
                "scanned", scanned, "converted", converted, "payloadBytes", payloadBytes, "heapFreedPerCopy",
                heapFreedPerCopy, "copies", copies, "skipped", skipped, "failed", failed, "notProcessed", notProcessed,
                "retries", retries, "duration", duration, "cancelled", cancelled};
    }
}
