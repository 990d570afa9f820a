package io.jobinfo.store.ops;

import static io.jobinfo.store.values.ValueLists.copyOf;

import com.google.auto.value.AutoValue;

import io.jobinfo.store.lifecycle.MapValueReader;

import io.jobinfo.store.lifecycle.ClusterIncident;
import io.jobinfo.store.spi.StoredBlob;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a {@link GarbageCollector} run found and did.
 */
@AutoValue
public abstract class GcReport {
    GcReport() {
    }

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
    public static GcReport of(Instant startedAt, Duration grace, int scanned, int referenced, int young,
            List<StoredBlob> orphans, List<StoredBlob> leftovers, List<StoredBlob> deleted, int savedByRecheck,
            List<String> failures, boolean deleting, int claimed, int interruptedDeletions,
            List<Long> finishedDeletions, List<ClusterIncident> heldBy, SortedMap<Long, String> undecodable) {
        return new AutoValue_GcReport(startedAt, grace, scanned, referenced, young, copyOf(orphans),
                copyOf(leftovers), copyOf(deleted), savedByRecheck, copyOf(failures), deleting, claimed,
                interruptedDeletions, copyOf(finishedDeletions), copyOf(heldBy),
                Collections.unmodifiableSortedMap(new TreeMap<>(undecodable)));
    }

    public abstract Instant startedAt();

    public abstract Duration grace();

    public abstract int scanned();

    public abstract int referenced();

    public abstract int young();

    public abstract List<StoredBlob> orphans();

    public abstract List<StoredBlob> leftovers();

    public abstract List<StoredBlob> deleted();

    public abstract int savedByRecheck();

    public abstract List<String> failures();

    public abstract boolean deleting();

    public abstract int claimed();

    public abstract int interruptedDeletions();

    public abstract List<Long> finishedDeletions();

    /** The open incidents that held this run (it deleted nothing); empty if it was not held. */
    public abstract List<ClusterIncident> heldBy();

    /**
     * Job ids whose map value cannot be read (a class or serializer this process does not have, damaged bytes), in
     * order, each with what the value is. Each keeps its blob; nothing was deserialized from them.
     */
    public abstract SortedMap<Long, String> undecodable();

    /** Whether a deleting run was held by an open incident and deleted nothing. */
    public boolean held() {
        return deleting() && !heldBy().isEmpty();
    }

    /** Bytes the orphans and leftovers occupy. */
    public long reclaimableBytes() {
        return orphans().stream().mapToLong(StoredBlob::sizeBytes).sum()
                + leftovers().stream().mapToLong(StoredBlob::sizeBytes).sum();
    }

    /** The generated form, but the undecodable jobs by id only (their descriptions can be long). */
    @Override
    public String toString() {
        return "GcReport{startedAt=" + startedAt() + ", grace=" + grace() + ", scanned=" + scanned()
                + ", referenced=" + referenced() + ", young=" + young() + ", orphans=" + orphans()
                + ", leftovers=" + leftovers() + ", deleted=" + deleted() + ", savedByRecheck=" + savedByRecheck()
                + ", failures=" + failures() + ", deleting=" + deleting() + ", claimed=" + claimed()
                + ", interruptedDeletions=" + interruptedDeletions() + ", finishedDeletions=" + finishedDeletions()
                + ", heldBy=" + heldBy() + ", undecodable=" + undecodable().keySet() + "}";
    }
}
