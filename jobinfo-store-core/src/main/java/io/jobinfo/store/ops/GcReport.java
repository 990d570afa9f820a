package io.jobinfo.store.ops;

import io.jobinfo.store.lifecycle.MapValueReader;

import io.jobinfo.store.lifecycle.ClusterIncident;
import io.jobinfo.store.spi.StoredBlob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a {@link GarbageCollector} run found and did.
 */
public final class GcReport {
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
     * @param startedAt      when the run began; the grace period counts back from here
     * @param grace          the grace period
     * @param scanned        objects listed in the store
     * @param referenced     blobs whose job id is registered in the map
     * @param young          unreferenced objects younger than the grace period (kept)
     * @param orphans        unreferenced complete blobs older than the grace period
     * @param leftovers      incomplete writes older than the grace period
     * @param deleted        what was deleted (empty on a dry run)
     * @param savedByRecheck orphans kept because their job id was registered (or claimed) when GC tried to claim it
     * @param failures       deletes that failed, with reasons; they are retried by the next run
     * @param deleting       {@code false} for a dry run
     */
    public GcReport(Instant startedAt, Duration grace, int scanned, int referenced, int young,
            List<StoredBlob> orphans, List<StoredBlob> leftovers, List<StoredBlob> deleted, int savedByRecheck,
            List<String> failures, boolean deleting) {
        this(startedAt, grace, scanned, referenced, young, orphans, leftovers, deleted, savedByRecheck, failures,
                deleting, 0, 0, Collections.<Long>emptyList(), Collections.<ClusterIncident>emptyList());
    }

    /**
     * @param claimed              blobs whose job id holds a delete marker (a deletion in progress; kept by this run
     *                             unless the marker is older than the grace period)
     * @param interruptedDeletions markers older than the grace period (deletions whose deleter crashed or failed)
     * @param finishedDeletions    job ids whose interrupted deletion this run finished (blob gone, marker removed)
     * @param heldBy               open incidents: a deleting run deleted nothing because of them (a dry run lists
     *                             what would hold a deleting run); empty: not held
     */
    public GcReport(Instant startedAt, Duration grace, int scanned, int referenced, int young,
            List<StoredBlob> orphans, List<StoredBlob> leftovers, List<StoredBlob> deleted, int savedByRecheck,
            List<String> failures, boolean deleting, int claimed, int interruptedDeletions,
            List<Long> finishedDeletions, List<ClusterIncident> heldBy) {
        this(startedAt, grace, scanned, referenced, young, orphans, leftovers, deleted, savedByRecheck, failures,
                deleting, claimed, interruptedDeletions, finishedDeletions, heldBy, new TreeMap<Long, String>());
    }

    /**
     * @param undecodable job ids whose map value cannot be read, with what the value is (see
     *                    {@link MapValueReader}); their blobs are kept like those of any registered job
     */
    public GcReport(Instant startedAt, Duration grace, int scanned, int referenced, int young,
            List<StoredBlob> orphans, List<StoredBlob> leftovers, List<StoredBlob> deleted, int savedByRecheck,
            List<String> failures, boolean deleting, int claimed, int interruptedDeletions,
            List<Long> finishedDeletions, List<ClusterIncident> heldBy, SortedMap<Long, String> undecodable) {
        this.undecodable = Collections.unmodifiableSortedMap(new TreeMap<>(undecodable));
        this.claimed = claimed;
        this.interruptedDeletions = interruptedDeletions;
        this.finishedDeletions = Collections.unmodifiableList(new ArrayList<>(finishedDeletions));
        this.heldBy = Collections.unmodifiableList(new ArrayList<>(heldBy));
        orphans = Collections.unmodifiableList(new ArrayList<>(orphans));
        leftovers = Collections.unmodifiableList(new ArrayList<>(leftovers));
        deleted = Collections.unmodifiableList(new ArrayList<>(deleted));
        failures = Collections.unmodifiableList(new ArrayList<>(failures));
        this.startedAt = startedAt;
        this.grace = grace;
        this.scanned = scanned;
        this.referenced = referenced;
        this.young = young;
        this.orphans = orphans;
        this.leftovers = leftovers;
        this.deleted = deleted;
        this.savedByRecheck = savedByRecheck;
        this.failures = failures;
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
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || o.getClass() != getClass()) {
            return false;
        }
        GcReport other = (GcReport) o;
        return java.util.Objects.equals(startedAt, other.startedAt)
                && java.util.Objects.equals(grace, other.grace)
                && scanned == other.scanned
                && referenced == other.referenced
                && young == other.young
                && java.util.Objects.equals(orphans, other.orphans)
                && java.util.Objects.equals(leftovers, other.leftovers)
                && java.util.Objects.equals(deleted, other.deleted)
                && savedByRecheck == other.savedByRecheck
                && java.util.Objects.equals(failures, other.failures)
                && deleting == other.deleting
                && claimed == other.claimed
                && interruptedDeletions == other.interruptedDeletions
                && finishedDeletions.equals(other.finishedDeletions)
                && heldBy.equals(other.heldBy)
                && undecodable.equals(other.undecodable);
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + java.util.Objects.hashCode(startedAt);
        h = 31 * h + java.util.Objects.hashCode(grace);
        h = 31 * h + scanned;
        h = 31 * h + referenced;
        h = 31 * h + young;
        h = 31 * h + java.util.Objects.hashCode(orphans);
        h = 31 * h + java.util.Objects.hashCode(leftovers);
        h = 31 * h + java.util.Objects.hashCode(deleted);
        h = 31 * h + savedByRecheck;
        h = 31 * h + java.util.Objects.hashCode(failures);
        h = 31 * h + Boolean.hashCode(deleting);
        h = 31 * h + claimed;
        h = 31 * h + heldBy.hashCode();
        h = 31 * h + undecodable.hashCode();
        return h;
    }

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
