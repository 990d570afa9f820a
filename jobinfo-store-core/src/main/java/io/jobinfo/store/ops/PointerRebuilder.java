package io.jobinfo.store.ops;

import static io.jobinfo.store.values.ValueLists.copyOf;

import com.google.auto.value.AutoValue;

import com.hazelcast.map.IMap;
import com.hazelcast.partition.PartitionService;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.lifecycle.DeleteMarker;
import io.jobinfo.store.lifecycle.StoredHeader;
import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;
import io.jobinfo.store.values.SetOnce;
import io.jobinfo.store.values.Nullable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Puts pointers back for blobs whose map entry is missing: after a partition of the job map was lost (every
 * replica), its pointers are gone while their blobs are intact in the store. A blob of format version 2 holds
 * everything a pointer needs (job id, initialization timestamp, length, checksums, codec, version; the store id is
 * the store's), so the pointer is rebuilt from the blob alone.
 *
 * <p>Which blobs: complete blobs of the store whose job id has no entry in the map (not even a
 * {@link DeleteMarker}: a deletion in progress is never undone), that were last modified no later than
 * {@link Builder#modifiedNotAfter} (the moment of the loss: a blob written later without a pointer is a submit in
 * flight or one that failed, not a lost job), and, if {@link Builder#onlyPartitions} is given, whose job id lives in
 * one of those partitions (the lost ones). Each blob is read and fully verified first; the pointer is put with
 * {@code putIfAbsent}, so an entry that appeared meanwhile is never overwritten.
 *
 * <p>What this cannot tell: a blob without a pointer may also be the orphan of a submit that failed before the loss
 * or of a job whose removal crashed between pointer and blob; restricting to the lost partitions and to blobs older
 * than the loss keeps those few, and a dry run (the default of the CLI) lists every candidate for the operator.
 * Blobs of format version 1 record no initialization timestamp: they are skipped unless
 * {@link Builder#timestampFromModificationTime} is set.
 */
public final class PointerRebuilder {

    /** What happened to one candidate. */
    public enum Outcome {
        /** The pointer was put (on a dry run: would be put). */
        REBUILT,
        /** The job id has an entry now (registered or being deleted): nothing done. */
        REGISTERED,
        /** A version 1 blob without an initialization timestamp; see {@link Builder#timestampFromModificationTime}. */
        NO_TIMESTAMP,
        /** The blob is missing, corrupt or unreadable, or the map call failed: nothing done. */
        FAILED
    }

    /** One examined blob. */
    @AutoValue
    public abstract static class Entry {
        Entry() {
        }

        static Entry of(StoredBlob blob, Outcome outcome, String detail, @Nullable JobInfoPointer pointer) {
            return new AutoValue_PointerRebuilder_Entry(blob.jobId(), blob.location(), outcome, detail, pointer);
        }

        public abstract long jobId();

        /** The blob's location, as the listing gave it. */
        public abstract Location location();

        public abstract Outcome outcome();

        /** Why (for anything but REBUILT), or "". */
        public abstract String detail();

        /** The pointer put (or that a dry run would put); {@code null} unless REBUILT. */
        @Nullable
        public abstract JobInfoPointer pointer();
    }

    /** What a run found and did. */
    @AutoValue
    public abstract static class Report {
        Report() {
        }

        static Report of(boolean applied, int scanned, int outside, List<Entry> entries) {
            return new AutoValue_PointerRebuilder_Report(applied, scanned, outside, copyOf(entries));
        }

        /** {@code false} for a dry run (nothing was put). */
        public abstract boolean applied();

        /** Complete blobs listed. */
        public abstract int scanned();

        /** Blobs without a map entry left alone: outside the partitions or modified after the cut-off. */
        public abstract int outside();

        /** Every candidate: a blob without a map entry, in scope. */
        public abstract List<Entry> entries();

        public List<Entry> with(Outcome outcome) {
            List<Entry> out = new ArrayList<>();
            for (Entry e : entries()) {
                if (e.outcome() == outcome) {
                    out.add(e);
                }
            }
            return out;
        }
    }

    private final IMap<Long, Object> map;
    private final JobInfoStore store;
    private final Set<Integer> partitions;
    private final PartitionService partitionService;
    private final Instant modifiedNotAfter;
    private final boolean timestampFromModificationTime;

    private PointerRebuilder(Builder b) {
        this.map = b.map;
        this.store = b.store;
        this.partitions = b.partitions == null ? null : Collections.unmodifiableSet(new HashSet<>(b.partitions));
        this.partitionService = b.partitionService;
        this.modifiedNotAfter = b.modifiedNotAfter;
        this.timestampFromModificationTime = b.timestampFromModificationTime;
    }

    /**
     * @param modifiedNotAfter only blobs last modified at or before this instant are candidates (the time of the
     *                         loss)
     */
    public static Builder builder(IMap<Long, Object> map, JobInfoStore store, Instant modifiedNotAfter) {
        return new Builder(map, store, modifiedNotAfter);
    }

    /**
     * Examines the store and, if {@code apply}, puts the pointers.
     *
     * @throws JobInfoStoreException listing the store failed; nothing was put
     */
    public Report run(boolean apply) throws JobInfoStoreException {
        List<StoredBlob> listed = store.list();
        Set<Long> registered = new HashSet<>(map.keySet()); // markers included: a deletion is never undone
        List<Entry> entries = new ArrayList<>();
        int scanned = 0;
        int outside = 0;
        for (StoredBlob blob : listed) {
            if (blob.incomplete()) {
                continue;
            }
            scanned++;
            long jobId = blob.jobId();
            if (registered.contains(jobId) || io.jobinfo.store.lifecycle.NamespaceClaim.isClaim(jobId)) {
                continue; // registered, or the namespace's claim (no job)
            }
            if (blob.lastModified().isAfter(modifiedNotAfter) || (partitions != null
                    && !partitions.contains(partitionService.getPartition(jobId).getPartitionId()))) {
                outside++;
                continue;
            }
            entries.add(rebuild(blob, apply));
        }
        entries.sort((a, b) -> Long.compare(a.jobId(), b.jobId()));
        return Report.of(apply, scanned, outside, entries);
    }

    private Entry rebuild(StoredBlob blob, boolean apply) {
        long jobId = blob.jobId();
        VerifiedBlob verified;
        try {
            verified = store.read(jobId);
        } catch (JobInfoStoreException e) {
            return Entry.of(blob, Outcome.FAILED, e.getMessage() + "; no pointer was put", null);
        }
        EnvelopeHeader header = verified.header();
        long timestamp;
        if (header.hasInitializationTimestamp()) {
            timestamp = header.initializationTimestamp();
        } else if (timestampFromModificationTime) {
            timestamp = blob.lastModified().toEpochMilli();
        } else {
            return Entry.of(blob, Outcome.NO_TIMESTAMP, "format version "
                    + header.formatVersion() + " records no initialization timestamp; allow the blob's modification"
                    + " time as its timestamp to rebuild it", null);
        }
        JobInfoPointer pointer = new JobInfoPointer(jobId, timestamp, store.storeId(), header);
        if (!apply) {
            return Entry.of(blob, Outcome.REBUILT, "", pointer);
        }
        Object previous;
        try {
            previous = map.putIfAbsent(jobId, pointer);
        } catch (RuntimeException e) {
            return Entry.of(blob, Outcome.FAILED, "putting the pointer failed or its outcome is"
                    + " unknown (" + e + "); run again", null);
        }
        if (previous != null) {
            return Entry.of(blob, Outcome.REGISTERED, "registered meanwhile: " + previous, null);
        }
        return checkBlobStillThere(blob, pointer, verified.header());
    }

    /**
     * After the pointer landed: the blob read before it must still be there. A GC that claimed the id, deleted the blob
     * and released the claim between this run's read and its put would leave a pointer without a blob; the pointer is
     * then taken back ({@code remove(jobId, pointer)}, only this pointer).
     */
    private Entry checkBlobStillThere(StoredBlob blob, JobInfoPointer pointer, EnvelopeHeader header) {
        long jobId = blob.jobId();
        try {
            if (header.describesSameBlob(StoredHeader.read(store, jobId))) {
                return Entry.of(blob, Outcome.REBUILT, "", pointer);
            }
        } catch (BlobNotFoundException | io.jobinfo.store.envelope.EnvelopeFormatException gone) {
            // taken back below
        } catch (JobInfoStoreException e) {
            return Entry.of(blob, Outcome.FAILED, "the pointer is put, but checking its blob afterwards"
                    + " failed (" + e.getMessage() + "); run verify", pointer);
        }
        boolean takenBack;
        try {
            takenBack = map.remove(jobId, pointer);
        } catch (RuntimeException e) {
            takenBack = false;
        }
        return Entry.of(blob, Outcome.FAILED, "the blob was deleted or replaced between this run's read"
                + " and its pointer put (a GC took it for an orphan); " + (takenBack ? "the pointer was taken back"
                : "taking the pointer back failed: run verify"), null);
    }

    /**
     * Configures a {@link PointerRebuilder}. Each property can be set once: a second set throws
     * {@link IllegalStateException}.
     */
    public static final class Builder {
        private final SetOnce properties = new SetOnce("PointerRebuilder.Builder");
        private final IMap<Long, Object> map;
        private final JobInfoStore store;
        private final Instant modifiedNotAfter;
        private Set<Integer> partitions;
        private PartitionService partitionService;
        private boolean timestampFromModificationTime;

        private Builder(IMap<Long, Object> map, JobInfoStore store, Instant modifiedNotAfter) {
            this.map = Objects.requireNonNull(map, "map");
            this.store = Objects.requireNonNull(store, "store");
            this.modifiedNotAfter = Objects.requireNonNull(modifiedNotAfter, "modifiedNotAfter");
        }

        /** Only job ids in these partitions (by {@code partitionService}, a member's or a client's). */
        public Builder onlyPartitions(Set<Integer> partitions, PartitionService partitionService) {
            this.partitions = properties.set("onlyPartitions", Objects.requireNonNull(partitions, "partitions"));
            this.partitionService = Objects.requireNonNull(partitionService, "partitionService");
            return this;
        }

        /** Version 1 blobs get their modification time as initialization timestamp (default: skipped). */
        public Builder timestampFromModificationTime(boolean allowed) {
            this.timestampFromModificationTime = properties.set("timestampFromModificationTime", allowed);
            return this;
        }

        public PointerRebuilder build() {
            return new PointerRebuilder(this);
        }
    }
}
