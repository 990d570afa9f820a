package io.jobinfo.store.ops;

import io.jobinfo.store.lifecycle.MapValueReader;

import io.jobinfo.store.lifecycle.ClusterIncident;
import io.jobinfo.store.spi.StoredBlob;
import io.jobinfo.store.values.ValueObject;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a {@link GarbageCollector} run found and did.
 */
public final class GcReport extends ValueObject {
    private final Instant startedAt;
    private final Duration grace;
    private final int scanned;
    private final int referenced;
    private final int young;
    private final List<StoredBlob> orphans;
    private final List<StoredBlob> leftovers;
    private final List<StoredBlob> deleted;
    private final int savedByRecheck;
    private final List<String> failures;
    private final boolean deleting;
    private final int claimed;
    private final int interruptedDeletions;
    private final List<Long> finishedDeletions;
    private final List<ClusterIncident> heldBy;
    private final SortedMap<Long, String> undecodable;

    /**
     * @param startedAt            when the run began; the grace period counts back from here
     * @param grace                the grace period
     * @param scanned              objects listed in the store
     * @param referenced           blobs whose job id is registered in the map
     * @param young                unreferenced objects younger than the grace period (kept)
     * @param orphans              unreferenced complete blobs older than the grace period
     * @param leftovers            incomplete writes older than the grace period
     * @param deleted              what was deleted (empty on a dry run)
     * @param savedByRecheck       orphans kept because their job id was registered (or claimed) when GC tried to
     *                             claim it
     * @param failures             deletes that failed, with reasons; they are retried by the next run
     * @param deleting             {@code false} for a dry run
     * @param claimed              blobs whose job id holds a delete marker (a deletion in progress; kept by this run
     *                             unless the marker is older than the grace period)
     * @param interruptedDeletions markers older than the grace period (deletions whose deleter crashed or failed)
     * @param finishedDeletions    job ids whose interrupted deletion this run finished (blob gone, marker removed)
     * @param heldBy               open incidents: a deleting run deleted nothing because of them (a dry run lists
     *                             what would hold a deleting run); empty: not held
     * @param undecodable          job ids whose map value cannot be read, with what the value is (see
     *                             {@link MapValueReader}); their blobs are kept like those of any registered job
     */
    public GcReport(Instant startedAt, Duration grace, int scanned, int referenced, int young,
            List<StoredBlob> orphans, List<StoredBlob> leftovers, List<StoredBlob> deleted, int savedByRecheck,
            List<String> failures, boolean deleting, int claimed, int interruptedDeletions,
            List<Long> finishedDeletions, List<ClusterIncident> heldBy, SortedMap<Long, String> undecodable) {
        this.undecodable = Collections.unmodifiableSortedMap(new TreeMap<>(undecodable));
        this.claimed = claimed;
        this.interruptedDeletions = interruptedDeletions;
        this.finishedDeletions = listOf(finishedDeletions);
        this.heldBy = listOf(heldBy);
        this.startedAt = startedAt;
        this.grace = grace;
        this.scanned = scanned;
        this.referenced = referenced;
        this.young = young;
        this.orphans = listOf(orphans);
        this.leftovers = listOf(leftovers);
        this.deleted = listOf(deleted);
        this.savedByRecheck = savedByRecheck;
        this.failures = listOf(failures);
        this.deleting = deleting;
    }

    public Instant startedAt() {
        return startedAt;
    }

    public Duration grace() {
        return grace;
    }

    public int scanned() {
        return scanned;
    }

    public int referenced() {
        return referenced;
    }

    public int young() {
        return young;
    }

    public List<StoredBlob> orphans() {
        return orphans;
    }

    public List<StoredBlob> leftovers() {
        return leftovers;
    }

    public List<StoredBlob> deleted() {
        return deleted;
    }

    public int savedByRecheck() {
        return savedByRecheck;
    }

    public List<String> failures() {
        return failures;
    }

    public boolean deleting() {
        return deleting;
    }

    public int claimed() {
        return claimed;
    }

    public int interruptedDeletions() {
        return interruptedDeletions;
    }

    public List<Long> finishedDeletions() {
        return finishedDeletions;
    }

    /** The open incidents that held this run (it deleted nothing); empty if it was not held. */
    public List<ClusterIncident> heldBy() {
        return heldBy;
    }

    /**
     * Job ids whose map value cannot be read (a class or serializer this process does not have, damaged bytes), in
     * order, each with what the value is. Each keeps its blob; nothing was deserialized from them.
     */
    public SortedMap<Long, String> undecodable() {
        return undecodable;
    }

    /** Whether a deleting run was held by an open incident and deleted nothing. */
    public boolean held() {
        return deleting && !heldBy.isEmpty();
    }

    /** Bytes the orphans and leftovers occupy. */
    public long reclaimableBytes() {
        return orphans.stream().mapToLong(StoredBlob::sizeBytes).sum()
                + leftovers.stream().mapToLong(StoredBlob::sizeBytes).sum();
    }

    @Override
    protected Object[] components() {
        return new Object[] {"startedAt", startedAt, "grace", grace, "scanned", scanned, "referenced", referenced,
                "young", young, "orphans", orphans, "leftovers", leftovers, "deleted", deleted, "savedByRecheck",
                savedByRecheck, "failures", failures, "deleting", deleting, "claimed", claimed, "interruptedDeletions",
                interruptedDeletions, "finishedDeletions", finishedDeletions, "heldBy", heldBy, "undecodable",
                undecodable};
    }

    /** As {@link ValueObject#toString()}, but the undecodable jobs by id only (their descriptions can be long). */
    @Override
    public String toString() {
        return "GcReport[startedAt=" + startedAt + ", grace=" + grace + ", scanned=" + scanned
                + ", referenced=" + referenced + ", young=" + young + ", orphans=" + orphans
                + ", leftovers=" + leftovers + ", deleted=" + deleted + ", savedByRecheck=" + savedByRecheck
                + ", failures=" + failures + ", deleting=" + deleting + ", claimed=" + claimed
                + ", interruptedDeletions=" + interruptedDeletions + ", finishedDeletions=" + finishedDeletions
                + ", heldBy=" + heldBy + ", undecodable=" + undecodable.keySet() + "]";
    }
}
