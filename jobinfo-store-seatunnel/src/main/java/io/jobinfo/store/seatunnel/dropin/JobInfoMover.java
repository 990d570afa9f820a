package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.logging.ILogger;
import com.hazelcast.map.IMap;
import com.hazelcast.map.impl.DataAwareEntryEvent;
import com.hazelcast.query.Predicates;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import io.jobinfo.store.lifecycle.BlobDeletion;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.lifecycle.LockClaims;
import io.jobinfo.store.lifecycle.ReferenceWrite;
import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.envelope.SealedEnvelope;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import org.apache.seatunnel.engine.core.job.JobInfo;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Moves jobs out of {@code engine_runningJobInfo} on the member that owns them, away from Hazelcast's partition
 * threads, and removes their blobs when SeaTunnel removes them.
 *
 * <ul>
 *   <li><b>Submit.</b> SeaTunnel puts the job inline, as always; the submit never waits for the store. A local entry
 *   listener (this member's own entries only) hands the job id to a mover thread, which writes the blob (write-once,
 *   envelope with codec {@value SeaTunnelJobDataCodec#ID}) and then replaces the inline value with a reference by a
 *   compare-and-set ({@code map.replace(id, inline, reference)}). A store that fails leaves the value inline (the job
 *   runs and restores as on the stock engine) and the move is retried with backoff; the sweep retries too, and picks
 *   up entries this member came to own by migration.</li>
 *   <li><b>Job end.</b> SeaTunnel removes the entry; the removal event of a reference deletes the blob afterwards
 *   (entry first, then blob). A move that loses its compare-and-set to a removal deletes the blob it wrote.</li>
 *   <li><b>Mixed cluster.</b> Nothing is moved while a member without the plugin is in the cluster (a rolling
 *   adoption): jobs stay inline, readable by every member; the sweep moves them once every member has it.</li>
 *   <li><b>GC.</b> On the master only, while every partition is safe: blobs with no entry, older than the grace
 *   period, and leftovers of interrupted writes, are deleted (what a crash between the two steps leaves).</li>
 * </ul>
 * It also keeps the {@link JoinGuard} that keeps members without the plugin out of the cluster (on a map of its own:
 * {@code engine_runningJobInfo} itself has no interceptor, so Hazelcast never deserializes its values on a partition
 * thread), and reads values as the stored {@code Data} through {@link BadValues}: nothing is ever instantiated from a
 * class that a value's bytes name.
 *
 * <p>In {@link DropInSettings.Mode#PASSIVE passive} mode it moves nothing and removes the join guard once no entry
 * holds a reference (checked at start and on every sweep, {@link ReferenceCount}), so members without the plugin can
 * join during a rolling adoption or removal, but never a cluster whose jobs they could not read; it still deletes the
 * blob of a removed reference and runs the gc.
 * Work for one job id always runs on the same thread (striped), so a delete and a later move of the same id (a job
 * resubmitted with its id) never overlap.
 */
final class JobInfoMover extends EntryChanges<JobInfo> {

    static final String MAP = "engine_runningJobInfo";
    /** How long a move or the delete after a removal waits for the claim lock of its job id. */
    static final long CLAIM_WAIT_MILLIS = 60_000;

    private final HazelcastInstance instance;
    private final SerializationService serialization;
    private final JobInfoStore store;
    private final JobInfoResolver resolver;
    private final DropInSettings settings;
    private final DropInMetrics metrics;
    private final ILogger logger;
    private final ScheduledExecutorService[] stripes;
    private final ScheduledExecutorService sweeper;
    private final Set<Long> pending = ConcurrentHashMap.newKeySet();
    private final BadValues badValues;
    private final String storeIdentity;
    private final JoinGuard guard;
    private final IMap<Long, JobInfo> map;
    /**
     * The per-id claim locks ({@link LockClaims#SEATUNNEL_CLAIMS}) shared with the operator tools: a move (blob, then
     * reference by compare-and-set), the delete after a removal and a gc delete each hold the lock of their job id,
     * and a delete decides under it that no entry references the blob. So a gc that found no entry cannot delete the
     * blob of a job submitted again under the same id meanwhile (SeaTunnel reuses ids).
     */
    private volatile LockClaims claims;
    /** The same locks, tried once: a gc delete leaves a busy id for its next run. */
    private volatile LockClaims gcClaims;
    /** The write half of the lifecycle over {@link #claims}: blob, then the reference by a compare-and-set. */
    private volatile ReferenceWrite writer;
    private volatile ClusterViewGuard view;
    private volatile String lastHoldLogged;
    private volatile UUID listenerId;
    private volatile long lastGc;
    private volatile long lastSummary = System.currentTimeMillis();
    private volatile Map<String, Long> summarized = java.util.Collections.emptyMap();

    JobInfoMover(HazelcastInstance instance, SerializationService serialization, JobInfoStore store,
                 JobInfoResolver resolver, DropInSettings settings, DropInMetrics metrics, ILogger logger,
                 String storeIdentity) {
        this.storeIdentity = storeIdentity;
        this.instance = instance;
        this.serialization = serialization;
        this.store = store;
        this.resolver = resolver;
        this.settings = settings;
        this.metrics = metrics;
        this.logger = logger;
        this.map = instance.getMap(MAP);
        this.badValues = new BadValues(logger, map);
        this.guard = new JoinGuard(instance, map, settings, metrics, logger, storeIdentity);
        this.stripes = new ScheduledExecutorService[settings.moveThreads()];
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = executor("jobinfo-dropin-mover-" + i);
        }
        this.sweeper = executor("jobinfo-dropin-sweeper");
        metrics.pendingMoves(() -> pending.size());
        metrics.badValues(() -> badValues.count());
    }

    private static ScheduledExecutorService executor(final String name) {
        final AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, name + (n.incrementAndGet() > 1 ? "-" + n.get() : ""));
            t.setDaemon(true);
            return t;
        };
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, factory);
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /** Listens to this member's own entries and starts the periodic sweep. Called once the member has started. */
    void start() {
        claims = new LockClaims(instance, LockClaims.SEATUNNEL_CLAIMS, MAP, this::mayReference, CLAIM_WAIT_MILLIS);
        gcClaims = new LockClaims(instance, LockClaims.SEATUNNEL_CLAIMS, MAP, this::mayReference, 0);
        writer = ReferenceWrite.builder(store, claims)
                .replaceUnreferencedConflicts() // an earlier run's blob of a job submitted again with its id
                .steps(new ReferenceWrite.Steps() {
                    @Override
                    public void beforeBlob(long jobId) {
                        DropInSteps.reached(DropInStepListener.Step.BEFORE_BLOB, jobId);
                    }

                    @Override
                    public void beforeReplace(long jobId) {
                        DropInSteps.reached(DropInStepListener.Step.BEFORE_REPLACE, jobId);
                    }
                })
                .deletionSteps(deleteSteps(null))
                .build();
        view = new ClusterViewGuard(instance, MAP, settings.viewWindowMillis());
        DropInMembers.register(instance, settings.mode(), storeIdentity);
        guard.start();
        listenerId = map.addLocalEntryListener(this, Predicates.alwaysTrue(), true);
        sweeper.scheduleWithFixedDelay(this::sweep, settings.sweepIntervalMillis(), settings.sweepIntervalMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * Stops taking work and returns at once; moves in progress are interrupted from a daemon thread of their own.
     * Interrupting a thread that waits in {@code FileChannel.force} on a stalled disk closes the channel and then
     * waits for that thread to leave the native call, so an interrupt from here would hold the member's stop until the
     * disk answers. An interrupted move leaves its job inline (a temporary file at most, which GC removes).
     */
    void stop() {
        final List<ScheduledExecutorService> all = new ArrayList<ScheduledExecutorService>(Arrays.asList(stripes));
        all.add(sweeper);
        for (ScheduledExecutorService s : all) {
            s.shutdown(); // no new work; never blocks
        }
        Thread interrupter = new Thread(new Runnable() {
            @Override
            public void run() {
                for (ScheduledExecutorService s : all) {
                    s.shutdownNow(); // may block while a mover waits on a stalled disk: this thread's problem only
                }
            }
        }, "jobinfo-dropin-stop");
        interrupter.setDaemon(true);
        interrupter.start();
        ClusterViewGuard v = view;
        if (v != null) {
            v.close();
            DropInMembers.unregister(instance);
        }
        IMap<Long, JobInfo> m = map;
        UUID id = listenerId;
        if (m != null && id != null) {
            try {
                m.removeEntryListener(id);
            } catch (RuntimeException ignored) {
                // the member is going away
            }
        }
    }

    /**
     * Whether every other member runs the drop-in: {@link JoinGuard#everyMemberHasThePlugin()}, cached for a sweep
     * interval (the history movers ask it too, instead of a cluster-wide read per value).
     */
    boolean everyMemberHasThePlugin() {
        return guard.everyMemberHasThePlugin();
    }

    private boolean passive() {
        return settings.mode() == DropInSettings.Mode.PASSIVE;
    }

    static final String EXECUTOR = "jobinfo-store-dropin";

    /**
     * The events of this member's own entries carry the stored Data ({@code DataAwareEntryEvent}, in Hazelcast 5.1
     * through 5.7): it is classified by {@link BadValues}, never deserialized by the event ({@code getValue()} would
     * instantiate whatever class the bytes name). An event of another kind makes the move read the value itself.
     */
    @Override
    void written(EntryEvent<Long, JobInfo> event) {
        long jobId = event.getKey();
        if (event instanceof DataAwareEntryEvent) {
            onValue(jobId, badValues.jobInfo(jobId, ((DataAwareEntryEvent<?, ?>) event).getNewValueData()));
        } else if (!passive() && pending.add(jobId)) {
            stripe(jobId).execute(() -> move(jobId, 0, null));
        }
    }

    @Override
    void gone(EntryEvent<Long, JobInfo> event) {
        badValues.forget(event.getKey());
        JobInfo old = event instanceof DataAwareEntryEvent ? badValues.jobInfo(event.getKey(),
                ((DataAwareEntryEvent<?, ?>) event).getOldValueData()) : null;
        if (old == null && !(event instanceof DataAwareEntryEvent)) {
            // no stored value to look at: the delete decides under the claim lock that nothing references the blob
            final long jobId = event.getKey();
            stripe(jobId).execute(() -> deleteAfterRemoval(jobId, 0));
        } else if (old != null && isReference(old.getJobImmutableInformation())) {
            final long jobId = event.getKey();
            stripe(jobId).execute(() -> deleteAfterRemoval(jobId, 0));
        }
    }

    private void onValue(Long jobId, JobInfo value) {
        if (passive()) {
            return;
        }
        if (value != null && !isReference(value.getJobImmutableInformation()) && pending.add(jobId)) {
            stripe(jobId).execute(() -> move(jobId, 0, value));
        }
    }

    static boolean isReference(Data data) {
        return data != null && data.getType() == JobInfoReferenceSerializer.TYPE_ID;
    }

    private ScheduledExecutorService stripe(long jobId) {
        return stripes[MoverStripes.of(jobId, stripes.length)];
    }

    /**
     * Writes the blob of an inline job, then swaps the inline value for a reference; retried on failure.
     *
     * @param known the value as the entry event (or the sweep) delivered it, or null to read it from the map. Using
     *              it spares the partition thread a {@code get} of the whole job; if the value has changed since, the
     *              compare-and-set below fails and the move looks again.
     */
    private void move(long jobId, int attempt, JobInfo known) {
        JobInfo current;
        try {
            current = known != null ? known : badValues.read(jobId);
        } catch (RuntimeException e) {
            retryMove(jobId, attempt, e.toString());
            return;
        }
        Data job = current == null ? null : current.getJobImmutableInformation();
        if (job == null || isReference(job)) {
            pending.remove(jobId);
            return;
        }
        if (!guard.everyMemberHasThePlugin()) {
            pending.remove(jobId);
            return;
        }
        EncodedPayload payload;
        try {
            payload = new SeaTunnelJobDataCodec().encode(job, EnvelopeHeader.LENGTH);
        } catch (IllegalArgumentException e) {
            pending.remove(jobId);
            metrics.notOffloadable.incrementAndGet();
            logger.warning("job " + jobId + " stays inline in " + MAP + ": " + e.getMessage());
            return;
        }
        // with the initialization timestamp, byte for byte what 'jobinfo-store migrate' writes for this job: a
        // migration running beside the drop-in finds its own bytes there and both compare-and-sets are safe; sealed
        // once: the checksums are computed here and the store's create does not hash the bytes again
        final JobInfo read = current;
        SealedEnvelope blob = BlobEnvelope.seal(jobId, SeaTunnelJobDataCodec.ID, read.getInitializationTimestamp(),
                payload);
        ReferenceWrite.Result r;
        try {
            r = writer.write(jobId, blob, new ReferenceWrite.Entry() {
                @Override
                public boolean replace(JobInfoPointer pointer) {
                    return map.replace(jobId, read, new JobInfo(read.getInitializationTimestamp(), referenceOf(pointer)));
                }

                @Override
                public ReferenceWrite.State state(JobInfoPointer pointer) {
                    return stateOf(badValues.read(jobId), read, pointer);
                }
            }, null);
        } catch (RuntimeException e) {
            retryMove(jobId, attempt, e.toString());
            return;
        }
        switch (r.outcome()) {
            case WRITTEN:
                metrics.moved.incrementAndGet();
                if (!r.detail().isEmpty()) {
                    logger.info("job " + jobId + ": " + r.detail() + " (" + store.location(jobId) + ")");
                }
                logger.fine("job " + jobId + " moved to " + store.location(jobId) + " (" + payload.length() + " bytes)");
                pending.remove(jobId);
                DropInSteps.reached(DropInStepListener.Step.AFTER_REPLACE, jobId);
                break;
            case ENTRY_GONE:
            case BEING_DELETED:
                // the job ended while its blob was written: nothing references the blob
                pending.remove(jobId);
                if (r.leftForGc()) {
                    logger.warning("job " + jobId + " ended while it was moved: " + r.detail());
                } else if (!r.detail().isEmpty()) {
                    logger.info("job " + jobId + " ended while it was moved: " + r.detail() + " ("
                            + store.location(jobId) + ")");
                }
                break;
            case BECAME_REFERENCE:
                pending.remove(jobId); // another writer (a migration beside the drop-in) put the reference
                break;
            case CHANGED:
                // the value changed meanwhile: look again
                if (r.leftForGc()) {
                    logger.warning("job " + jobId + " changed while it was moved: " + r.detail());
                }
                stripe(jobId).execute(() -> move(jobId, 0, null));
                break;
            case BUSY:
                retryMove(jobId, attempt, "the claim lock of job " + jobId + " stayed busy for "
                        + CLAIM_WAIT_MILLIS / 1000 + " s");
                break;
            default: // CONFLICT, STORE_FAILED, OUTCOME_UNKNOWN (the blob kept), READ_BACK_FAILED
                retryMove(jobId, attempt, r.toString());
        }
    }

    /** The map value of a reference to {@code pointer}. */
    private Data referenceOf(JobInfoPointer pointer) {
        return serialization.toData(new JobInfoReference(pointer));
    }

    /** What {@code now}, the entry under the id, is to the move of {@code read} to {@code pointer}. */
    private ReferenceWrite.State stateOf(JobInfo now, JobInfo read, JobInfoPointer pointer) {
        if (now == null) {
            return ReferenceWrite.State.GONE;
        }
        Data value = now.getJobImmutableInformation();
        if (isReference(value)) {
            return referenceOf(pointer).equals(value) ? ReferenceWrite.State.REFERENCE_WRITTEN
                    : ReferenceWrite.State.OTHER_REFERENCE;
        }
        return now.equals(read) ? ReferenceWrite.State.SAME_INLINE : ReferenceWrite.State.OTHER_INLINE;
    }

    /**
     * Whether the entry of {@code jobId} holds a reference. A value that cannot be read counts (it may); a value of
     * another class does not (only a {@code JobInfo} holds one).
     */
    private boolean mayReference(long jobId) {
        io.jobinfo.store.lifecycle.MapValue now = badValues.values().read(jobId);
        if (now.undecodable()) {
            return true;
        }
        return now.decoded() && now.value() instanceof JobInfo
                && isReference(((JobInfo) now.value()).getJobImmutableInformation());
    }

    /**
     * The steps of a delete: the resolver forgets the job before its blob goes; the step listeners (test-only crash
     * points) are told of {@code step} unless it is null.
     */
    private BlobDeletion.Steps deleteSteps(final DropInStepListener.Step step) {
        return new BlobDeletion.Steps() {
            @Override
            public void beforeDelete(long jobId) {
                resolver.invalidate(jobId);
                if (step != null) {
                    DropInSteps.reached(step, jobId);
                }
            }
        };
    }

    private void retryMove(long jobId, int attempt, String cause) {
        metrics.moveFailures.incrementAndGet();
        long delay = MoveBackoff.delayMillis(attempt);
        if (MoveBackoff.warns(attempt)) {
            logger.warning("job " + jobId + " stays inline in " + MAP + " for now: its blob could not be written to "
                    + store.location(jobId) + " (" + cause + ")" + MoveBackoff.attemptNote(attempt) + "; retrying in "
                    + delay + " ms");
        }
        try {
            stripe(jobId).schedule(() -> move(jobId, attempt + 1, null), delay, TimeUnit.MILLISECONDS);
        } catch (RuntimeException rejected) {
            pending.remove(jobId);
        }
    }

    /**
     * Deletes the blob of a removed job unless the id has a reference again (the job was resubmitted), through
     * {@link BlobDeletion}: held while this member's view may be partial (retried every sweep interval; the first hold
     * of a job is logged at INFO with its reason), a failed delete retried with backoff.
     */
    private void deleteAfterRemoval(long jobId, int attempt) {
        BlobDeletion.Result r = BlobDeletion.deleteUnreferenced(jobId, claims, store, () -> holdReason(false),
                deleteSteps(DropInStepListener.Step.BEFORE_BLOB_DELETE));
        switch (r.outcome()) {
            case DELETED:
                metrics.blobsDeleted.incrementAndGet();
                // every delete of a blob is logged at INFO, naming the member's reason: one line per job end
                logger.info("job " + jobId + " ended: its blob " + store.location(jobId) + " is deleted"
                        + (attempt > 0 ? " (after a wait)" : ""));
                return;
            case ABSENT:
            case KEPT:
                return;
            case HELD:
                // this member may not see the entry that still holds the blob: wait, never decide on a partial view
                if (attempt == 0) {
                    logger.info("job " + jobId + " ended: the delete of its blob " + store.location(jobId)
                            + " waits (" + r.detail() + "); tried again every " + settings.sweepIntervalMillis()
                            + " ms");
                }
                schedule(jobId, () -> deleteAfterRemoval(jobId, Math.max(1, attempt)),
                        settings.sweepIntervalMillis());
                return;
            default:
                metrics.deleteFailures.incrementAndGet();
                long delay = MoveBackoff.delayMillis(attempt);
                logger.warning("job " + jobId + " ended but its blob at " + store.location(jobId) + " could not be"
                        + " deleted (" + r.detail() + "); retrying in " + delay + " ms (gc removes it otherwise)");
                schedule(jobId, () -> deleteAfterRemoval(jobId, attempt + 1), delay);
        }
    }

    private void schedule(long jobId, Runnable work, long delayMillis) {
        try {
            stripe(jobId).schedule(work, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RuntimeException rejected) {
            // shutting down: gc finds it
        }
    }

    /** Inline values this member owns (missed events, migrated partitions, failed moves); gc on the master. */
    private void sweep() {
        try {
            view.observeMembers();
            DropInMembers.register(instance, settings.mode(), storeIdentity);
            if (isMaster()) {
                DropInMembers.forgetDeparted(instance);
            }
            boolean passive = passive();
            guard.check();
            // passive: nothing is moved, so nothing is read either; the gauge says -1 (not counted)
            long inline = passive ? -1 : 0;
            for (Long jobId : passive ? java.util.Collections.<Long>emptySet() : map.localKeySet()) {
                JobInfo v = badValues.read(jobId); // a bad value is reported and skipped
                if (v != null && v.getJobImmutableInformation() != null && !isReference(v.getJobImmutableInformation())) {
                    inline++;
                }
                onValue(jobId, v);
            }
            metrics.inlineOwned.set(inline);
            long now = System.currentTimeMillis();
            logSummary(now);
            long gcEvery = Math.max(settings.sweepIntervalMillis(), Math.min(60_000, settings.gcGraceMillis()));
            if (isMaster() && now - lastGc >= gcEvery) {
                lastGc = now;
                gc(now);
            }
        } catch (JobInfoStoreException | RuntimeException e) {
            logger.warning("jobinfo-store drop-in sweep failed, next one in " + settings.sweepIntervalMillis()
                    + " ms: " + e);
        }
    }

    private boolean isMaster() {
        return instance.getCluster().getMembers().iterator().next().localMember();
    }

    /** Deletes blobs that no entry references any more and that are older than the grace period. */
    void gc(long now) throws JobInfoStoreException {
        if (holdReason(true) != null) {
            return;
        }
        metrics.gcRuns.incrementAndGet();
        Instant cutoff = Instant.ofEpochMilli(now - settings.gcGraceMillis());
        OrphanScan.scan(store, map, cutoff, id -> stripe(id).execute(() -> gcDelete(id)));
    }

    /**
     * Why deletes must wait now ({@link ClusterViewGuard#holdReason}), or null. The gc's checks
     * ({@code withIncidents}) keep the log and the {@code deletesHeld} gauge: a new reason is logged once, and so is
     * the end of a hold.
     */
    private String holdReason(boolean withIncidents) {
        ClusterViewGuard v = view;
        String reason = v == null ? "the drop-in has not started" : v.holdReason(withIncidents);
        if (!withIncidents) {
            return reason;
        }
        String logged = lastHoldLogged;
        if (reason != null && !reason.equals(logged)) {
            lastHoldLogged = reason;
            logger.warning("jobinfo-store drop-in holds its blob deletes: " + reason);
        } else if (reason == null && logged != null) {
            lastHoldLogged = null;
            logger.info("jobinfo-store drop-in deletes blobs again: this member's view of " + MAP + " is whole");
        }
        metrics.deletesHeld.set(reason == null ? 0 : 1);
        return reason;
    }

    /**
     * Deletes the blob of {@code jobId} through {@link BlobDeletion} if, under the id's claim lock, no entry references
     * it and this member's view is whole. A busy lock means a move or a delete of the id is under way: the blob is left
     * for the next gc.
     */
    private void gcDelete(long jobId) {
        BlobDeletion.Result r = BlobDeletion.deleteUnreferenced(jobId, gcClaims, store, () -> holdReason(true),
                deleteSteps(DropInStepListener.Step.BEFORE_GC_DELETE));
        if (r.outcome() == BlobDeletion.Outcome.DELETED) {
            metrics.gcDeleted.incrementAndGet();
            logger.info("gc deleted the blob of job " + jobId + " (no entry): " + store.location(jobId));
        } else if (r.outcome() == BlobDeletion.Outcome.FAILED) {
            logger.warning("gc could not delete the blob of job " + jobId + ": " + r.detail());
        }
    }

    /**
     * Every {@link DropInSettings#summaryIntervalMillis()}: one INFO line with what this member did since the last
     * one (moves, deletes, gc, reads, failures) and its state (mode, inline jobs it owns, deletes held).
     */
    private void logSummary(long now) {
        if (now - lastSummary < settings.summaryIntervalMillis()) {
            return;
        }
        Map<String, Long> current = metrics.snapshot();
        Map<String, Long> before = summarized;
        StringBuilder line = new StringBuilder("jobinfo-store drop-in (").append(settings.mode().name()
                .toLowerCase(java.util.Locale.ROOT)).append(" mode), last ").append((now - lastSummary) / 1000)
                .append(" s:");
        for (String counter : new String[] {"moved", "moveFailures", "blobsDeleted", "deleteFailures", "gcRuns",
                "gcDeleted", "reads", "cacheHits", "readRetries", "readTimeouts", "readFailures"}) {
            long delta = current.getOrDefault(counter, 0L) - before.getOrDefault(counter, 0L);
            line.append(' ').append(counter).append(' ').append(delta).append(',');
        }
        line.append(" inline jobs owned ").append(current.getOrDefault("inlineOwned", 0L))
                .append(", deletes held ").append(current.getOrDefault("deletesHeld", 0L) == 1 ? "yes" : "no");
        logger.info(line.toString());
        summarized = current;
        lastSummary = now;
    }
}
