package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.logging.ILogger;
import com.hazelcast.map.IMap;
import com.hazelcast.map.impl.DataAwareEntryEvent;
import com.hazelcast.query.Predicates;
import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.SealedEnvelope;
import io.jobinfo.store.lifecycle.BlobDeletion;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.lifecycle.LockClaims;
import io.jobinfo.store.lifecycle.ReferenceWrite;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Moves the values of one of SeaTunnel's finished-job maps ({@link HistoryMaps}) to the store, on the member that
 * owns them, the way {@link JobInfoMover} moves running jobs:
 * <ul>
 *   <li><b>Write.</b> SeaTunnel puts the value inline with its TTL ({@code history-job-expire-minutes}); a local
 *   entry listener hands the id to this mover's thread (never a partition thread), which writes the value's Data
 *   verbatim as a blob (write-once, envelope with codec {@value #CODEC_ID}, in the map's own sub-namespace) and
 *   replaces the value by a {@link HistoryReference} by compare-and-set. Hazelcast 5.1's {@code replace} drops the
 *   entry's TTL ({@code HistoryTtlTest}), so the mover sets the remaining time again right after it, and the sweep
 *   puts back the expiry a reference records on an entry that lost it (a crash between the two calls). An entry with
 *   no expiry (the empty metrics SeaTunnel's {@code computeIfAbsent} puts before its merge) is not moved.</li>
 *   <li><b>Rewrite.</b> SeaTunnel's metrics are merged and put again at every pipeline's end: the new inline value is
 *   moved again, and the blob of the superseded reference (which no entry names any more) is deleted under the id's
 *   hold before the new one is written ({@link ReferenceWrite.Builder#replaceUnreferencedConflicts()}).</li>
 *   <li><b>Expiry and removal.</b> The owner's expired, evicted and removed events of a reference delete its blob
 *   (unless the id holds a reference again); the master's gc deletes blobs with no entry past the grace period.</li>
 * </ul>
 * Nothing is moved in passive mode or while a member without the plugin is in the cluster (the running-job mover's
 * cached check, {@link JobInfoMover#everyMemberHasThePlugin()}). A move that fails (the store down) leaves the value
 * inline (served as before) and is retried with {@link MoveBackoff} (WARN at the first failure of a value and every
 * tenth after, with the count); a value the mover cannot take (not a Hazelcast Data of a history value: a reference's
 * type id, the null type, fewer than 8 bytes) is left as it is, reported once by its job id and counted in
 * {@code notOffloadable}, and the other values move as usual.
 */
final class HistoryMover extends EntryChanges.WithExpiry<Object> {

    /** Codec id of a history blob: the Hazelcast Data of the map's value, verbatim. */
    static final int CODEC_ID = 3;
    /** The side map whose locks are the claims of {@code map}'s ids. */
    static final String CLAIMS_PREFIX = "jobinfo-store-dropin-history-claims-";

    private final HazelcastInstance instance;
    private final SerializationService serialization;
    private final IMap<Long, Object> map;
    private final String name;
    private final JobInfoStore store;
    private final JobInfoResolver resolver;
    private final DropInSettings settings;
    private final ILogger logger;
    private final HistoryEntries entries;
    private final ScheduledExecutorService worker;
    private final Set<Long> pending = ConcurrentHashMap.newKeySet();
    /** Ids whose value the mover cannot take, reported once while it stays (forgotten when the entry goes). */
    private final Set<Long> badReported = ConcurrentHashMap.newKeySet();
    private final BooleanSupplier everyMemberHasThePlugin;
    private final DropInMetrics metrics;
    private volatile LockClaims claims;
    private volatile LockClaims gcClaims;
    private volatile ReferenceWrite writer;
    private volatile ClusterViewGuard view;
    private volatile UUID listenerId;
    private volatile long lastGc;

    HistoryMover(HazelcastInstance instance, SerializationService serialization, String mapName, JobInfoStore store,
                 JobInfoResolver resolver, DropInSettings settings, DropInMetrics metrics, ILogger logger,
                 BooleanSupplier everyMemberHasThePlugin) {
        this.everyMemberHasThePlugin = everyMemberHasThePlugin;
        this.metrics = metrics;
        this.instance = instance;
        this.serialization = serialization;
        this.map = instance.getMap(mapName);
        this.name = mapName;
        this.store = store;
        this.resolver = resolver;
        this.settings = settings;
        this.logger = logger;
        this.entries = new HistoryEntries(map, serialization);
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jobinfo-dropin-history-" + mapName);
            t.setDaemon(true);
            return t;
        });
    }

    /** What a history blob's payload must be: a Hazelcast Data of something other than a reference. */
    static void checkPayload(long jobId, byte[] payload) throws CodecException {
        if (payload.length < 8) {
            throw new CodecException("job " + jobId + ": " + payload.length + " bytes are too short for a Hazelcast"
                    + " Data (8-byte header)");
        }
        int type = ((payload[4] & 0xff) << 24) | ((payload[5] & 0xff) << 16) | ((payload[6] & 0xff) << 8)
                | (payload[7] & 0xff);
        if (HistoryReferenceSerializer.isReference(type) || type == JobInfoReferenceSerializer.TYPE_ID || type == 0) {
            throw new CodecException("job " + jobId + ": the blob holds Hazelcast type id " + type + ", not a history"
                    + " value");
        }
    }

    void start() {
        claims = new LockClaims(instance, CLAIMS_PREFIX + name, name, this::mayReference, JobInfoMover.CLAIM_WAIT_MILLIS);
        gcClaims = new LockClaims(instance, CLAIMS_PREFIX + name, name, this::mayReference, 0);
        writer = ReferenceWrite.builder(store, claims).replaceUnreferencedConflicts()
                .deletionSteps(new BlobDeletion.Steps() {
                    @Override
                    public void beforeDelete(long jobId) {
                        resolver.invalidate(jobId);
                    }
                }).build();
        view = new ClusterViewGuard(instance, name, settings.viewWindowMillis());
        listenerId = map.addLocalEntryListener(this, Predicates.alwaysTrue(), true);
        worker.scheduleWithFixedDelay(this::sweep, settings.sweepIntervalMillis(), settings.sweepIntervalMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** Whether this mover's worker may still run a task: false once {@link #stop()} has ended it. */
    boolean running() {
        return !worker.isTerminated();
    }

    void stop() {
        worker.shutdownNow();
        ClusterViewGuard v = view;
        if (v != null) {
            v.close();
        }
        UUID id = listenerId;
        if (id != null) {
            try {
                map.removeEntryListener(id);
            } catch (RuntimeException ignored) {
                // the member is stopping
            }
        }
    }

    @Override
    void written(EntryEvent<Long, Object> event) {
        Data value = event instanceof DataAwareEntryEvent ? ((DataAwareEntryEvent<?, ?>) event).getNewValueData() : null;
        if (value == null || !HistoryReferenceSerializer.isReference(value.getType())) {
            schedule(event.getKey());
        }
    }

    @Override
    void gone(EntryEvent<Long, Object> event) {
        Data old = event instanceof DataAwareEntryEvent ? ((DataAwareEntryEvent<?, ?>) event).getOldValueData() : null;
        badReported.remove(event.getKey());
        if (old == null || HistoryReferenceSerializer.isReference(old.getType())) {
            final long jobId = event.getKey();
            run(() -> delete(jobId, false));
        }
    }

    private void schedule(long jobId) {
        if (pending.add(jobId)) {
            run(() -> move(jobId, 0));
        }
    }

    private void run(Runnable work) {
        try {
            worker.execute(work);
        } catch (RuntimeException rejected) {
            // stopping: the sweep or gc of another member finds it
        }
    }

    private boolean moving() {
        return settings.mode() == DropInSettings.Mode.ACTIVE
                && everyMemberHasThePlugin.getAsBoolean();
    }

    /**
     * Moves the value of {@code jobId}; {@code attempt} is how many moves of it failed before (0: the first). The id
     * stays in {@link #pending} while a retry waits, so the sweep does not start a second one.
     */
    private void move(long jobId, int attempt) {
        try {
            HistoryEntries.Stored now = entries.read(jobId);
            if (now == null || now.value == null || now.isReference() || now.expirationTime == Long.MAX_VALUE
                    || !moving()) {
                pending.remove(jobId);
                return;
            }
            final Data inline = now.value;
            final long expiresAt = now.expirationTime;
            byte[] bytes = inline.toByteArray();
            try {
                checkPayload(jobId, bytes);
            } catch (CodecException bad) {
                pending.remove(jobId);
                reportBad(jobId, bad.getMessage());
                return;
            }
            badReported.remove(jobId);
            byte[] buffer = new byte[EnvelopeHeader.LENGTH + bytes.length];
            System.arraycopy(bytes, 0, buffer, EnvelopeHeader.LENGTH, bytes.length);
            // the entry's expiry is the instance's timestamp: a later history under a reused id is another pointer
            SealedEnvelope blob = BlobEnvelope.seal(jobId, CODEC_ID, expiresAt,
                    EncodedPayload.of(buffer, EnvelopeHeader.LENGTH, bytes.length));
            ReferenceWrite.Result r = writer.write(jobId, blob, new ReferenceWrite.Entry() {
                @Override
                public boolean replace(JobInfoPointer pointer) {
                    if (!map.replace(jobId, inline, referenceOf(pointer))) {
                        return false;
                    }
                    restoreTtl(jobId, expiresAt);
                    return true;
                }

                @Override
                public ReferenceWrite.State state(JobInfoPointer pointer) {
                    HistoryEntries.Stored s = entries.read(jobId);
                    if (s == null) {
                        return ReferenceWrite.State.GONE;
                    }
                    if (s.isReference()) {
                        return referenceOf(pointer).equals(s.value) ? ReferenceWrite.State.REFERENCE_WRITTEN
                                : ReferenceWrite.State.OTHER_REFERENCE;
                    }
                    return inline.equals(s.value) ? ReferenceWrite.State.SAME_INLINE : ReferenceWrite.State.OTHER_INLINE;
                }
            }, null);
            switch (r.outcome()) {
                case WRITTEN:
                    pending.remove(jobId);
                    metrics.historyMoved.incrementAndGet();
                    if (attempt > 0) {
                        logger.info(name + " job " + jobId + " moved to " + store.location(jobId) + " after "
                                + attempt + " failed attempts");
                    }
                    logger.fine(name + " job " + jobId + " moved to " + store.location(jobId));
                    return;
                case CHANGED:
                    // the value changed meanwhile: look again shortly
                    pending.remove(jobId);
                    worker.schedule(() -> schedule(jobId), 200, TimeUnit.MILLISECONDS);
                    return;
                case ENTRY_GONE:
                case BEING_DELETED:
                case BECAME_REFERENCE:
                    pending.remove(jobId);
                    return;
                default:
                    retry(jobId, attempt, r.toString());
            }
        } catch (RuntimeException e) {
            retry(jobId, attempt, e.toString());
        }
    }

    /** A value the mover cannot take: left as it is, logged and counted once per job id while it stays. */
    private void reportBad(long jobId, String problem) {
        if (badReported.size() < 10_000 && badReported.add(jobId)) {
            metrics.notOffloadable.incrementAndGet();
            logger.warning("jobinfo-store drop-in: the value of job " + jobId + " in " + name + " is not a history"
                    + " value it can move (" + problem + "); it is left as it is, and the other jobs' values are moved"
                    + " and collected as usual. Check where it came from, then remove it (IMap.delete(" + jobId
                    + ")); it expires with history-job-expire-minutes anyway");
        }
    }

    /** The reference to {@code pointer}, whose timestamp is the entry's expiry (the blob is sealed with it). */
    private Data referenceOf(JobInfoPointer pointer) {
        return serialization.toData(new HistoryReference(pointer, name));
    }

    /** Hazelcast 5.1's replace drops the entry's TTL: the time SeaTunnel gave it is set again. */
    private void restoreTtl(long jobId, long expiresAt) {
        long remaining = expiresAt - System.currentTimeMillis();
        map.setTtl(jobId, Math.max(1, remaining), TimeUnit.MILLISECONDS);
    }

    private void retry(long jobId, int attempt, String cause) {
        metrics.historyMoveFailures.incrementAndGet();
        long delay = MoveBackoff.delayMillis(attempt);
        if (MoveBackoff.warns(attempt)) {
            logger.warning(name + " job " + jobId + " stays inline for now: its blob could not be written to "
                    + store.location(jobId) + " (" + cause + ")" + MoveBackoff.attemptNote(attempt) + "; retrying in "
                    + delay + " ms");
        }
        try {
            worker.schedule(() -> move(jobId, attempt + 1), delay, TimeUnit.MILLISECONDS);
        } catch (RuntimeException rejected) {
            pending.remove(jobId); // stopping
        }
    }

    private boolean mayReference(long jobId) {
        HistoryEntries.Stored now = entries.read(jobId);
        return now != null && (now.value == null || now.isReference());
    }

    /** Deletes the blob of {@code jobId} unless its entry holds a reference (again). */
    private void delete(long jobId, boolean gc) {
        ClusterViewGuard v = view;
        BlobDeletion.Result r = BlobDeletion.deleteUnreferenced(jobId, gc ? gcClaims : claims, store,
                () -> v.holdReason(gc), new BlobDeletion.Steps() {
                    @Override
                    public void beforeDelete(long id) {
                        resolver.invalidate(id);
                    }
                });
        if (r.outcome() == BlobDeletion.Outcome.DELETED) {
            metrics.historyBlobsDeleted.incrementAndGet();
            logger.fine(name + " job " + jobId + (gc ? ": gc deleted " : ": entry gone, deleted ")
                    + store.location(jobId));
        } else if (r.outcome() == BlobDeletion.Outcome.FAILED || r.outcome() == BlobDeletion.Outcome.HELD) {
            logger.info(name + " job " + jobId + ": the blob " + store.location(jobId) + " stays for now ("
                    + r.detail() + "); gc removes it once no entry is left");
        }
    }

    /** Inline values this member owns and references that lost their TTL; gc on the master. */
    private void sweep() {
        try {
            view.observeMembers();
            for (Long jobId : map.localKeySet()) {
                HistoryEntries.Stored s = entries.read(jobId);
                if (s == null) {
                    continue;
                }
                if (!s.isReference()) {
                    schedule(jobId);
                } else if (s.expirationTime == Long.MAX_VALUE) {
                    repairTtl(jobId, s.value);
                }
            }
            long now = System.currentTimeMillis();
            if (instance.getCluster().getMembers().iterator().next().localMember()
                    && now - lastGc >= Math.max(settings.sweepIntervalMillis(), Math.min(60_000, settings.gcGraceMillis()))
                    && view.holdReason(true) == null) {
                lastGc = now;
                gc(now);
            }
        } catch (JobInfoStoreException | RuntimeException e) {
            logger.warning(name + " history sweep failed, next one in " + settings.sweepIntervalMillis() + " ms: " + e);
        }
    }

    /**
     * Gives a reference that lost its TTL (a crash between the replace and the setTtl) the expiry it records. A
     * reference whose bytes cannot be read is a bad value: reported once, and the sweep goes on with the other ids.
     */
    private void repairTtl(long jobId, Data reference) {
        long expiresAt;
        try {
            expiresAt = HistoryReferenceSerializer.expiresAt(reference.getType(),
                    ((com.hazelcast.internal.serialization.InternalSerializationService) serialization)
                            .createObjectDataInput(reference));
        } catch (java.io.IOException | RuntimeException e) {
            reportBad(jobId, "a history reference that cannot be read: " + e);
            return;
        }
        restoreTtl(jobId, expiresAt);
    }

    private void gc(long now) throws JobInfoStoreException {
        Instant cutoff = Instant.ofEpochMilli(now - settings.gcGraceMillis());
        OrphanScan.scan(store, map, cutoff, id -> run(() -> delete(id, true)));
    }
}
