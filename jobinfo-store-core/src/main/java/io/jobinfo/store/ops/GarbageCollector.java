package io.jobinfo.store.ops;

import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.lifecycle.LockClaims;
import io.jobinfo.store.lifecycle.MarkerClaims;
import io.jobinfo.store.lifecycle.DeleteClaims;
import io.jobinfo.store.lifecycle.BlobDeletion;
import io.jobinfo.store.lifecycle.JobValueFormats;
import io.jobinfo.store.lifecycle.MapValue;
import io.jobinfo.store.lifecycle.MapValueReader;
import io.jobinfo.store.lifecycle.OrphanRule;

import com.hazelcast.map.IMap;
import io.jobinfo.store.concurrent.WorkerPool;
import io.jobinfo.store.lifecycle.ClusterIncident;
import io.jobinfo.store.lifecycle.DeleteMarker;
import io.jobinfo.store.lifecycle.IncidentLog;
import io.jobinfo.store.location.Location;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Finds and removes orphans: blobs that no entry of the job map references and that are older than a grace period,
 * and leftovers of interrupted writes older than the grace period.
 *
 * <p><b>Safety: claim, then delete.</b> A blob is kept whenever the map holds a pointer or an inline value under its
 * job id (whichever store the pointer names). Each orphan goes through {@link BlobDeletion}: its job id is claimed
 * ({@link #claims}), the blob deleted, the claim released. In this library's map the claim is
 * {@code putIfAbsent(jobId, DeleteMarker)} ({@link MarkerClaims}): while the marker is there no submit can put a
 * pointer under the id, so a submit retried during the delete (whose {@code create} reports ALREADY_PRESENT for the
 * blob about to go) waits or fails instead of registering a pointer without a blob. In SeaTunnel's map the claim is
 * the id's lock in the drop-in's claims map ({@link LockClaims}), and nothing is written into SeaTunnel's map. If the
 * delete fails, a marker stays (the delete may still land) and a later run finishes it.
 *
 * <p><b>Interrupted deletions.</b> A marker older than the grace period is a deletion whose deleter crashed or whose
 * blob delete failed: GC finishes it (deletes the blob if it is still there, then removes that exact marker). A
 * deleter is expected to finish within the grace period; one stalled longer between its claim and its delete can be
 * overtaken, which is why the grace period has a 10-minute minimum in the CLI.
 *
 * <p><b>Hold after a loss.</b> With an {@link IncidentLog} ({@link #holdOnIncidents}), a deleting run deletes nothing
 * while an incident (a lost partition, a healed split brain) is open within the window: the blobs of lost pointers
 * look like orphans. The report names the incidents ({@link GcReport#heldBy()}); an operator rebuilds the pointers
 * and acknowledges. If the log cannot be read, the run holds too.
 *
 * <p>Blobs younger than the grace period are never touched: that covers submits in flight (blob written, pointer not
 * yet). The grace period must exceed the longest time a submit may take, retries included. What counts as an orphan
 * is decided by {@link OrphanRule}, the rule {@link Verifier} reports by (a job id under a delete marker counts as
 * not registered; its blob is being deleted by the marker's deleter).
 *
 * <p><b>Values that do not decode.</b> The map is read value by value through a {@link MapValueReader}: nothing is
 * deserialized on the members (no predicate, which would need every value's class there) and, in this process, only
 * this library's values and those of the {@linkplain #formats value formats} given. A value that cannot be read (a
 * class nobody here has, a foreign serializer, damaged bytes) still registers its job id: its blob is kept, the job id
 * is listed in {@link GcReport#undecodable()}, and the run goes on for the other jobs.
 */
public final class GarbageCollector {

    /** Default grace period: 1 hour. */
    public static final Duration DEFAULT_GRACE = Duration.ofHours(1);
    /** The owner named in the markers of GC. */
    public static final String MARKER_OWNER = "gc";
    /** Map values read at once while scanning. */
    static final int SCAN_PARALLELISM = 4;

    private final IMap<Long, Object> map;
    private final JobInfoStore store;
    private final Duration grace;
    private final OrphanRule rule;
    private final Clock clock;
    private volatile JobValueFormats formats = JobValueFormats.inlineOnly();
    private volatile BlobDeletion.Steps steps = BlobDeletion.Steps.NONE;
    private volatile DeleteClaims claims;
    /** Delete markers in the map: what an interrupted deletion left, finished by {@link #run}. */
    private final MarkerClaims markerClaims;
    private volatile IncidentLog incidents;
    private volatile Duration incidentWindow = IncidentLog.DEFAULT_WINDOW;
    private volatile boolean presenceOnly;

    @SuppressWarnings("unchecked")
    public GarbageCollector(IMap<Long, ?> map, JobInfoStore store, Duration grace, Clock clock) {
        this.map = (IMap<Long, Object>) Objects.requireNonNull(map, "map");
        this.store = Objects.requireNonNull(store, "store");
        this.grace = Objects.requireNonNull(grace, "grace");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.rule = new OrphanRule(grace);
        this.markerClaims = new MarkerClaims(map, MARKER_OWNER, clock);
        this.claims = markerClaims;
    }

    public GarbageCollector(IMap<Long, ?> map, JobInfoStore store, Duration grace) {
        this(map, store, grace, Clock.systemUTC());
    }

    /** Told of each deletion's steps ({@link BlobDeletion.Steps}); default: nothing. */
    public GarbageCollector steps(BlobDeletion.Steps steps) {
        this.steps = Objects.requireNonNull(steps, "steps");
        return this;
    }

    /**
     * How job ids are claimed before their blobs are deleted (default: {@link MarkerClaims}, delete markers in the
     * job map). A map that other code reads as its own values (SeaTunnel's) needs {@link LockClaims}: see
     * {@link JobValueFormats#deleteClaims}.
     */
    public GarbageCollector claims(DeleteClaims claims) {
        this.claims = Objects.requireNonNull(claims, "claims");
        return this;
    }

    /**
     * The value formats the map may hold besides this library's own values (default: {@link
     * JobValueFormats#inlineOnly()}): their values are decoded to tell them from values that do not decode. Whatever
     * the formats, a job id with any value keeps its blob.
     */
    public GarbageCollector formats(JobValueFormats formats) {
        this.formats = Objects.requireNonNull(formats, "formats");
        return this;
    }

    /**
     * For a map whose values are another program's that this run does not read (SeaTunnel's finished-job history
     * maps): a job id with an entry keeps its blob whatever the entry holds, and no value is read (none is reported
     * undecodable, no delete marker is looked for). The claims must then be locks ({@link #claims} with a
     * {@link LockClaims}), never markers in that map.
     */
    public GarbageCollector presenceOnly() {
        this.presenceOnly = true;
        return this;
    }

    /**
     * Holds deletes while {@code log} has an open incident within {@code window} (see {@link IncidentLog#open}).
     * Without it GC does not look at incidents.
     */
    public GarbageCollector holdOnIncidents(IncidentLog log, Duration window) {
        this.incidents = Objects.requireNonNull(log, "log");
        this.incidentWindow = Objects.requireNonNull(window, "window");
        return this;
    }

    /**
     * Lists orphans and, if {@code delete}, removes them (unless held by an open incident).
     *
     * @param progress called once per blob examined (for progress display); may be a no-op
     * @throws JobInfoStoreException listing the store failed; nothing was deleted
     */
    public GcReport run(boolean delete, Consumer<StoredBlob> progress) throws JobInfoStoreException {
        Instant startedAt = clock.instant();
        Instant cutoff = startedAt.minus(grace);
        List<StoredBlob> listed = NamespaceClaim.jobsOnly(store.list()); // the claim is no job
        MapValueReader reader = new MapValueReader(map, formats);
        Set<Long> registered = new HashSet<>(map.keySet());
        Map<Long, DeleteMarker> markers = new ConcurrentHashMap<>();
        SortedMap<Long, String> undecodable = Collections.synchronizedSortedMap(new TreeMap<Long, String>());
        if (!presenceOnly) {
            scan(reader, new ArrayList<>(registered), markers, undecodable);
        }
        registered.removeAll(markers.keySet()); // a key that went away meanwhile stays registered for this run
        List<StoredBlob> orphans = new ArrayList<>();
        List<StoredBlob> leftovers = new ArrayList<>();
        Map<Long, StoredBlob> blobsById = new HashMap<>();
        int referenced = 0;
        int young = 0;
        int claimed = 0;
        for (StoredBlob blob : listed) {
            progress.accept(blob);
            if (!blob.incomplete()) {
                blobsById.put(blob.jobId(), blob);
            }
            if (!blob.incomplete() && markers.containsKey(blob.jobId())) {
                claimed++; // a deletion is in progress (or interrupted: finished below)
                continue;
            }
            switch (rule.classify(blob, registered.contains(blob.jobId()), startedAt)) {
                case REFERENCED:
                    referenced++;
                    break;
                case YOUNG:
                    young++;
                    break;
                case LEFTOVER:
                    leftovers.add(blob);
                    break;
                case ORPHAN:
                    orphans.add(blob);
                    break;
                default:
                    throw new IllegalStateException("unknown verdict");
            }
        }
        List<DeleteMarker> interrupted = new ArrayList<>();
        for (DeleteMarker m : markers.values()) {
            if (m.claimedAt().isBefore(cutoff)) {
                interrupted.add(m);
            }
        }
        interrupted.sort((a, b) -> Long.compare(a.jobId(), b.jobId()));
        List<ClusterIncident> heldBy = openIncidents(startedAt); // a dry run reports what would hold
        List<StoredBlob> deleted = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        List<Long> finished = new ArrayList<>();
        int savedByRecheck = 0;
        if (delete && heldBy.isEmpty()) {
            for (StoredBlob orphan : orphans) {
                long jobId = orphan.jobId();
                BlobDeletion.Result r = BlobDeletion.deleteUnreferenced(jobId, claims, store, BlobDeletion.NEVER_HELD,
                        steps);
                switch (r.outcome()) {
                    case DELETED:
                        deleted.add(orphan);
                        break;
                    case ABSENT:
                        break;
                    case KEPT:
                        savedByRecheck++; // registered (or claimed by another deleter) while we were running
                        break;
                    default:
                        MapValue now = readQuietly(reader, jobId);
                        if (now != null && now.undecodable()) {
                            // a value that does not decode appeared meanwhile (the claim could not read it back)
                            savedByRecheck++;
                            undecodable.put(jobId, now.problem());
                        } else {
                            failures.add(orphan.location() + ": " + r.detail() + " (a claim that landed stays, and a"
                                    + " later run finishes the deletion)");
                        }
                        continue;
                }
                if (r.releaseFailure() != null) {
                    failures.add(orphan.location() + ": the blob is deleted but removing the claim failed ("
                            + r.releaseFailure() + "); a later run removes it");
                }
            }
            for (DeleteMarker marker : interrupted) {
                long jobId = marker.jobId();
                Location location = store.location(jobId);
                MapValue now;
                try {
                    now = reader.read(jobId);
                } catch (RuntimeException e) {
                    failures.add(location + ": finishing the interrupted deletion (" + marker + ") failed: " + e);
                    continue;
                }
                if (!now.decoded() || !marker.equals(now.value())) {
                    continue; // finished by its deleter meanwhile
                }
                BlobDeletion.Result r = BlobDeletion.deleteClaimed(
                        markerClaims.adopt(marker), store, steps);
                if (r.outcome() == BlobDeletion.Outcome.FAILED) {
                    failures.add(location + ": finishing the interrupted deletion (" + marker + ") failed: "
                            + r.detail());
                    continue;
                }
                if (r.outcome() == BlobDeletion.Outcome.DELETED && blobsById.containsKey(jobId)) {
                    deleted.add(blobsById.get(jobId));
                }
                if (r.releaseFailure() != null) {
                    failures.add(location + ": the blob is deleted but removing the claim failed ("
                            + r.releaseFailure() + "); a later run removes it");
                } else {
                    finished.add(jobId);
                }
            }
            for (StoredBlob leftover : leftovers) {
                try {
                    if (store.deleteIncomplete(leftover)) {
                        deleted.add(leftover);
                    }
                } catch (JobInfoStoreException | RuntimeException e) {
                    failures.add(leftover.location() + ": " + e.getMessage());
                }
            }
        }
        return GcReport.of(startedAt, grace, listed.size(), referenced, young, orphans, leftovers, deleted,
                savedByRecheck, failures, delete, claimed, interrupted.size(), finished, heldBy,
                new TreeMap<>(undecodable));
    }

    /**
     * Reads every value of {@code keys} (4 at a time), without deserializing anything but this library's and the
     * formats' values: the delete markers go to {@code markers}, values that cannot be read to {@code undecodable}.
     *
     * @throws IllegalStateException the calling thread was interrupted: nothing was deleted (the flag is set)
     * @throws RuntimeException      a cluster call failed: nothing was deleted
     */
    private static void scan(MapValueReader reader, List<Long> keys, Map<Long, DeleteMarker> markers,
            Map<Long, String> undecodable) {
        Collections.sort(keys);
        boolean complete = new WorkerPool("jobinfo-gc-scan", SCAN_PARALLELISM).forEach(keys, jobId -> {
            MapValue value = reader.read(jobId);
            if (value.undecodable()) {
                undecodable.put(jobId, value.problem());
            } else if (value.decoded() && value.value() instanceof DeleteMarker) {
                markers.put(jobId, (DeleteMarker) value.value());
            }
        });
        if (!complete) {
            throw new IllegalStateException("gc was interrupted while reading the job map; nothing was deleted");
        }
    }

    private static MapValue readQuietly(MapValueReader reader, long jobId) {
        try {
            return reader.read(jobId);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private List<ClusterIncident> openIncidents(Instant now) {
        IncidentLog log = incidents;
        if (log == null) {
            return Collections.emptyList();
        }
        try {
            return log.open(incidentWindow, now);
        } catch (RuntimeException e) {
            // cannot tell whether something was lost: hold
            return Collections.singletonList(new ClusterIncident(ClusterIncident.Kind.PARTITION_LOST,
                    "(incident log unreadable: " + e + ")", -1, now, "gc"));
        }
    }
}
