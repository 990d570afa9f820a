package io.jobinfo.store.ops;

import io.jobinfo.store.lifecycle.MarkerClaims;
import io.jobinfo.store.lifecycle.DeleteClaims;
import io.jobinfo.store.lifecycle.ReferenceWrite;
import io.jobinfo.store.lifecycle.JobValueFormats;
import io.jobinfo.store.lifecycle.InlineJobInfoFormat;
import io.jobinfo.store.lifecycle.MapValue;
import io.jobinfo.store.lifecycle.JobValueFormat;
import io.jobinfo.store.lifecycle.MapValueReader;
import io.jobinfo.store.lifecycle.InlineJob;

import com.hazelcast.map.IMap;
import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.concurrent.WorkerPool;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.lifecycle.DeleteMarker;
import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.envelope.SealedEnvelope;
import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.values.SetOnce;
import com.google.auto.value.AutoValue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the values of a live job map between the two shapes readers accept: an inline value (the job in the map:
 * this library's {@link InlineJobInfo}, or another {@link JobValueFormat} such as SeaTunnel's own {@code JobInfo})
 * and {@link JobInfoPointer} (the job in a {@link JobInfoStore}, a pointer in the map that keeps the initialization
 * timestamp and codec id). Which inline formats a run accepts is set with {@link Builder#formats}; a rollback
 * rebuilds each pointer as the first format that restores its codec id.
 *
 * <p><b>Migrate</b>, per inline entry: seal the encoded job in an envelope ({@code BlobEnvelope.seal(jobId, codecId,
 * initializationTimestamp, encodedJob)}, one SHA-256 pass), {@code store.create} it (write-once; identical bytes already there, from an earlier interrupted run,
 * are fine), read it back and verify it (header and CRC32C: see publish), then {@code map.replace(jobId, inline, pointer)}: a compare-and-set, so a
 * coordinator changing the entry meanwhile is never overwritten. If the entry changed meanwhile the migrator looks
 * again: removed (the job ended) - the blob it wrote is deleted; now a pointer (migrated by someone else, or
 * resubmitted) - skipped, blob kept; another inline value - the blob written for the old value is deleted and the
 * entry retried, up to {@code maxAttempts} times.
 *
 * <p><b>Rollback</b>, per pointer entry: read and verify the blob, {@code map.replace(jobId, pointer, inline)}, and
 * only after that succeeded delete the blob (a blob of an entry that is inline again is not referenced by anything,
 * and {@link GarbageCollector} would never remove it because the job id is still registered). A rollback interrupted
 * between the replace and the delete leaves a blob with the same bytes, which the next migration reuses.
 *
 * <p><b>Crash safety.</b> Every step leaves each entry either inline or a pointer to a complete, verified blob: the
 * blob is complete before the pointer is written, and deleted only after the pointer is gone. Reruns skip entries
 * that are already in the target shape, so a run can be repeated until its report is clean.
 *
 * <p>Values are read with a {@link MapValueReader}: a value that does not decode (a class or serializer this process
 * does not have, damaged bytes) fails its entry ({@link Reason#UNDECODABLE_VALUE}, naming what it is), is left as it
 * is, and the run goes on with the other entries; nothing is deserialized from it.
 *
 * <p>Migrate and rollback must not run at the same time against one map (each is safe beside a coordinator and beside
 * another run of itself). Keys added after the run started are not examined: run again to pick them up.
 */
public final class Migrator {

    private static final Logger LOG = LoggerFactory.getLogger(Migrator.class);

    /** Entries converted at once unless {@link Builder#parallelism} says otherwise. */
    public static final int DEFAULT_PARALLELISM = 16;

    /** Serialized size of an {@link InlineJobInfo} besides its payload: Hazelcast data header (8 bytes), the
     * identified-data-serializable header (9), timestamp (8), codec id (2) and array length (4). */
    static final int INLINE_OVERHEAD = InlineJobInfoFormat.OVERHEAD;

    /** Which way a run converts. */
    public enum Direction {
        /** Inline values to pointers. */
        MIGRATE,
        /** Pointers back to inline values. */
        ROLLBACK
    }

    /** What happened to one entry. */
    public enum Outcome {
        /** Converted (on a dry run: would be converted). */
        CONVERTED,
        /** Left as it was; not a problem. */
        SKIPPED,
        /** Not converted; the entry is unchanged (still inline, or a valid pointer). */
        FAILED
    }

    /** Why an entry was skipped or failed. */
    public enum Reason {
        NONE("converted"),
        ALREADY_POINTER("already a pointer"),
        ALREADY_INLINE("already inline"),
        REMOVED("removed meanwhile (the job ended)"),
        BECAME_POINTER("became a pointer meanwhile (migrated by another run or resubmitted)"),
        BECAME_INLINE("became inline meanwhile (rolled back by another run)"),
        KEPT_CHANGING("changed on every attempt"),
        CONFLICTING_BLOB("another blob is stored under this job id"),
        STORE_FAILED("the store failed"),
        BLOB_INVALID("the blob is missing, corrupt or does not match its pointer"),
        OTHER_STORE("the pointer names another store"),
        UNKNOWN_VALUE("the map value is neither a pointer nor an inline job"),
        UNDECODABLE_VALUE("the map value does not decode"),
        CLUSTER_FAILED("a cluster call failed");

        private final String text;

        Reason(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /**
     * One examined entry.
     */
    @AutoValue
    public abstract static class EntryResult {
        EntryResult() {
        }

        /**
         * @param jobId            the key
         * @param outcome          what happened
         * @param reason           why (for skipped and failed entries)
         * @param detail           a message naming location and what to do, or {@code ""}
         * @param payloadBytes     the job's encoded size
         * @param heapFreedPerCopy serialized value bytes freed in one copy of the entry (negative: used)
         * @param attempts         compare-and-set attempts made
         */
        public static EntryResult of(long jobId, Outcome outcome, Reason reason, String detail, long payloadBytes,
                long heapFreedPerCopy, int attempts) {
            return new AutoValue_Migrator_EntryResult(jobId, outcome, reason, detail, payloadBytes, heapFreedPerCopy,
                    attempts);
        }

        public abstract long jobId();

        public abstract Outcome outcome();

        public abstract Reason reason();

        public abstract String detail();

        public abstract long payloadBytes();

        public abstract long heapFreedPerCopy();

        public abstract int attempts();

        /** Reason and detail in one line. */
        public String describe() {
            return detail().isEmpty() ? reason().text() : reason().text() + ": " + detail();
        }
    }

    /** Observes a run. Called from the worker threads: implementations must be thread-safe. */
    public interface Listener {
        /** Once, after the keys were listed. */
        default void started(Direction direction, int entries) {
        }

        /** Right before each compare-and-set of {@code jobId}; for tests that change the entry at that moment. */
        default void beforeReplace(long jobId, int attempt) {
        }

        /** After each examined entry. */
        default void entryDone(EntryResult result) {
        }
    }

    private final IMap<Long, Object> map;
    private final JobInfoStore store;
    private final int parallelism;
    private final int maxAttempts;
    private final int copies;
    private final Listener listener;
    private final JobValueFormats formats;
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final MapValueReader reader;
    private final DeleteClaims claims;
    private final ReferenceWrite writer;
    /** Stands for a value that does not decode where the map is read again: no format recognises it. */
    private static final Object UNDECODABLE = new Object() {
        @Override
        public String toString() {
            return "a value that does not decode";
        }
    };

    private Migrator(Builder b) {
        this.map = b.map;
        this.store = b.store;
        this.parallelism = b.parallelism;
        this.maxAttempts = b.maxAttempts;
        this.copies = b.copies;
        this.listener = b.listener;
        this.formats = b.formats;
        this.reader = new MapValueReader(b.map, b.formats);
        this.claims = b.claims != null ? b.claims : new MarkerClaims(b.map, "migrate", java.time.Clock.systemUTC());
        // read back at CRC32C before the reference is written: why that level, see publish's javadoc
        this.writer = ReferenceWrite.builder(store, claims).readBack(ReadVerification.CRC32C).build();
    }

    public static Builder builder(IMap<Long, Object> map, JobInfoStore store) {
        return new Builder(map, store);
    }

    /** Turns inline values into pointers. */
    public MigrationReport migrate(boolean dryRun) {
        return run(Direction.MIGRATE, dryRun);
    }

    /** Turns pointers back into inline values. */
    public MigrationReport rollback(boolean dryRun) {
        return run(Direction.ROLLBACK, dryRun);
    }

    /** Stops a running {@link #migrate} or {@link #rollback} after the entries in progress; safe from any thread. */
    public void cancel() {
        cancelled.set(true);
    }

    /** Serialized size of an inline value, as the map stores it. */
    public static long inlineValueBytes(long payloadLength) {
        return INLINE_OVERHEAD + payloadLength;
    }

    /** Serialized size of a pointer, as the map stores it. */
    public static long pointerValueBytes(String storeId) {
        return JobInfoPointer.serializedBytes(storeId);
    }

    private MigrationReport run(Direction direction, boolean dryRun) {
        cancelled.set(false);
        long start = System.nanoTime();
        List<Long> keys = new ArrayList<>(map.keySet());
        Collections.sort(keys);
        listener.started(direction, keys.size());
        List<EntryResult> skipped = Collections.synchronizedList(new ArrayList<>());
        List<EntryResult> failed = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger converted = new AtomicInteger();
        AtomicInteger processed = new AtomicInteger();
        AtomicInteger retries = new AtomicInteger();
        AtomicLong bytes = new AtomicLong();
        AtomicLong freed = new AtomicLong();
        WorkerPool pool = new WorkerPool("jobinfo-" + direction.name().toLowerCase(Locale.ROOT), parallelism);
        // An interruption stops the run like cancel(): the entries in progress finish, no more are examined, the
        // report says so and the interrupt flag stays set.
        boolean complete = pool.forEach(keys, cancelled::get, jobId -> {
            EntryResult result;
            try {
                result = direction == Direction.MIGRATE ? migrateOne(jobId, dryRun) : rollbackOne(jobId, dryRun);
            } catch (RuntimeException e) {
                result = EntryResult.of(jobId, Outcome.FAILED, Reason.CLUSTER_FAILED, e.toString()
                        + "; the entry is unchanged or converted completely, rerun to finish", 0, 0, 1);
            }
            processed.incrementAndGet();
            retries.addAndGet(Math.max(0, result.attempts() - 1));
            switch (result.outcome()) {
                case CONVERTED:
                    converted.incrementAndGet();
                    bytes.addAndGet(result.payloadBytes());
                    freed.addAndGet(result.heapFreedPerCopy());
                    break;
                case SKIPPED:
                    skipped.add(result);
                    break;
                case FAILED:
                    failed.add(result);
                    LOG.warn("job {}: not {}: {}", jobId, direction == Direction.MIGRATE ? "migrated"
                            : "rolled back", result.describe());
                    break;
                default:
                    throw new IllegalStateException("unknown outcome " + result.outcome());
            }
            listener.entryDone(result);
        });
        if (!complete) {
            cancelled.set(true);
        }
        List<EntryResult> skippedSorted = new ArrayList<>(skipped);
        skippedSorted.sort((a, b) -> Long.compare(a.jobId(), b.jobId()));
        List<EntryResult> failedSorted = new ArrayList<>(failed);
        failedSorted.sort((a, b) -> Long.compare(a.jobId(), b.jobId()));
        return MigrationReport.of(direction, dryRun, map.getName(), store.storeId(), keys.size(), converted.get(),
                bytes.get(), freed.get(), copies, skippedSorted, failedSorted, keys.size() - processed.get(),
                retries.get(), Duration.ofNanos(System.nanoTime() - start), cancelled.get());
    }

    private EntryResult migrateOne(long jobId, boolean dryRun) {
        return attempts(jobId, "entry stays inline",
                (read, value, attempt) -> migrateAttempt(jobId, dryRun, read, value, attempt));
    }

    /** One attempt at migrating a live entry: its result, or {@code null} when the entry changed meanwhile. */
    private EntryResult migrateAttempt(long jobId, boolean dryRun, MapValue read, Object value, int attempt) {
        if (formats.pointerOf(value) != null) {
            return skip(jobId, attempt == 1 ? Reason.ALREADY_POINTER : Reason.BECAME_POINTER, attempt);
        }
        JobValueFormat format = formats.forValue(value);
        if (format == null) {
            return fail(jobId, Reason.UNKNOWN_VALUE, unknownValue(value), attempt);
        }
        InlineJob inline;
        try {
            inline = format.read(jobId, value);
        } catch (CodecException e) {
            return fail(jobId, Reason.UNKNOWN_VALUE, "the " + format.name() + " value is malformed: "
                    + e.getMessage() + "; the entry stays as it is", attempt);
        }
        byte[] payload = inline.payload();
        long freedPerCopy = format.valueBytes(payload.length) - format.pointerValueBytes(store.storeId());
        if (dryRun) {
            return EntryResult.of(jobId, Outcome.CONVERTED, Reason.NONE, "", payload.length, freedPerCopy,
                    attempt);
        }
        // no delete of this id (drop-in or tool) runs between the blob and the reference: in SeaTunnel's map the
        // id's claim lock is held (ReferenceWrite holds it), as the drop-in's move holds it
        return publish(jobId, attempt, read.compareValue(), format, inline, freedPerCopy);
    }

    /** One attempt at an entry whose value decodes and is live. */
    private interface Attempt {
        /** The entry's result, or {@code null} when it changed meanwhile and the next attempt should look again. */
        EntryResult run(MapValue read, Object value, int attempt);
    }

    /**
     * Runs {@code step} on the entry's current value until it gives a result, at most {@link #maxAttempts} times.
     * An entry whose value does not decode fails, and one that is gone or being deleted (a marker: the job ended, its
     * blob is being deleted) is skipped, at once; after the last attempt the entry fails as kept changing, the
     * {@code kept} part of the message saying what stays.
     */
    private EntryResult attempts(long jobId, String kept, Attempt step) {
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            MapValue read = reader.read(jobId);
            if (read.undecodable()) {
                return fail(jobId, Reason.UNDECODABLE_VALUE, read.problem() + "; the entry stays as it is", attempt);
            }
            Object value = read.value();
            if (value == null || value instanceof DeleteMarker) {
                return skip(jobId, Reason.REMOVED, attempt);
            }
            EntryResult result = step.run(read, value, attempt);
            if (result != null) {
                return result;
            }
        }
        return fail(jobId, Reason.KEPT_CHANGING, "gave up after " + maxAttempts + " attempts; the " + kept + ", rerun",
                maxAttempts);
    }

    /**
     * Writes the blob of an inline job, then swaps the inline value for its pointer by a compare-and-set: the
     * lifecycle's write half ({@link ReferenceWrite}), with a read-back and a conflict left to the operator.
     *
     * <p><b>One SHA-256 pass.</b> The envelope is sealed once ({@link BlobEnvelope#seal}: one CRC32C and one SHA-256
     * pass over the payload, computed from the very buffer that is written), and the pointer carries the header of
     * that seal. The store's {@code create} accepts a {@link SealedEnvelope} after checking it by CRC32C
     * ({@link SealedEnvelope#unchanged()}), without hashing it again.
     *
     * <p><b>Read-back at {@link ReadVerification#CRC32C}.</b> The blob is still read back in full before the pointer is
     * written, and the read checks everything but a second SHA-256: magic, version, header checksum, job id, that the
     * stored length is exactly the declared one, and the payload's CRC32C; the header read back must then describe
     * the blob this run sealed ({@link EnvelopeHeader#describesSameBlob}: length, CRC32C and the SHA-256 field). What
     * the read-back exists to catch - a store that lost, truncated, tore or damaged the write, or a blob of another
     * job under the id - is caught by these: a byte that differs from the sealed buffer changes the CRC32C with
     * probability 1 - 2^-32 (every burst of up to 32 bits surely), and a blob that was already there
     * ({@code ALREADY_PRESENT}) was compared by the store with a full SHA-256 pass ({@code verifyStream}) before create
     * returned. What a second SHA-256 over bytes this process wrote moments ago would add is only a deliberate rewrite
     * of the blob in that window that also forges the CRC32C, by someone who can write the store; such a writer could
     * as well do it a moment after the read-back, and every reader verifies the SHA-256 against the pointer
     * ({@link ReadVerification#FULL}, the default) before using a job. Rollback's read of the blob stays at
     * {@link ReadVerification#FULL}: there the bytes go back into the map, and nothing else verifies them.
     *
     * @return the entry's result, or {@code null} when the entry changed meanwhile and the next attempt should look
     *         again
     */
    private EntryResult publish(long jobId, int attempt, Object expected, JobValueFormat format, InlineJob inline,
                                long freedPerCopy) {
        byte[] payload = inline.payload();
        // the envelope records the initialization timestamp, so the pointer can be rebuilt from the blob alone; sealed
        // once (one CRC32C and one SHA-256 pass over the payload): create checks it by CRC32C, never re-hashes it
        byte[] buffer = new byte[EnvelopeHeader.LENGTH + payload.length];
        System.arraycopy(payload, 0, buffer, EnvelopeHeader.LENGTH, payload.length);
        SealedEnvelope envelope = BlobEnvelope.seal(jobId, inline.codecId(), inline.initializationTimestamp(),
                EncodedPayload.of(buffer, EnvelopeHeader.LENGTH, payload.length));
        ReferenceWrite.Entry entry = new ReferenceWrite.Entry() {
            @Override
            public boolean replace(JobInfoPointer pointer) {
                return map.replace(jobId, expected, format.pointerValue(pointer)); // the value read, as stored
            }

            @Override
            public ReferenceWrite.State state(JobInfoPointer pointer) {
                return stateOf(jobId, current(jobId), pointer, inline);
            }
        };
        ReferenceWrite.Result r = writer.write(jobId, envelope, entry, new ReferenceWrite.Steps() {
            @Override
            public void beforeReplace(long id) {
                listener.beforeReplace(id, attempt);
            }
        });
        if (r.leftForGc()) {
            LOG.warn("job {}: {}", jobId, r.detail()); // a blob this write wrote stays for gc
        }
        switch (r.outcome()) {
            case WRITTEN:
                return EntryResult.of(jobId, Outcome.CONVERTED, Reason.NONE, "", payload.length, freedPerCopy,
                        attempt);
            case BUSY:
                LOG.debug("job {}: its claim lock is busy (attempt {}); retrying", jobId, attempt);
                return null;
            case CONFLICT:
                return fail(jobId, Reason.CONFLICTING_BLOB, r.detail() + "; look at it with 'inspect " + jobId
                        + "', remove it, and rerun", attempt);
            case OUTCOME_UNKNOWN:
                return fail(jobId, Reason.STORE_FAILED, "the write's outcome is unknown (" + r.detail()
                        + "); the entry stays inline, rerun", attempt);
            case STORE_FAILED:
                return fail(jobId, Reason.STORE_FAILED, r.detail() + "; the entry stays inline, rerun", attempt);
            case READ_BACK_FAILED:
                return fail(jobId, Reason.BLOB_INVALID, r.detail() + "; the entry stays inline", attempt);
            case ENTRY_GONE:
            case BEING_DELETED:
                return skip(jobId, Reason.REMOVED, attempt);
            case BECAME_REFERENCE:
                return skip(jobId, Reason.BECAME_POINTER, attempt);
            default:
                LOG.debug("job {} changed during migration (attempt {}); retrying", jobId, attempt);
                return null;
        }
    }

    /** What {@code now} (a value read under the id) is to a write of {@code pointer} for {@code inline}. */
    private ReferenceWrite.State stateOf(long jobId, Object now, JobInfoPointer pointer, InlineJob inline) {
        if (now == null) {
            return ReferenceWrite.State.GONE;
        }
        if (now instanceof DeleteMarker) {
            return ReferenceWrite.State.CLAIMED;
        }
        JobInfoPointer nowPointer = formats.pointerOf(now);
        if (nowPointer != null) {
            return pointer.equals(nowPointer) ? ReferenceWrite.State.REFERENCE_WRITTEN
                    : ReferenceWrite.State.OTHER_REFERENCE;
        }
        if (formats.forValue(now) == null) {
            return ReferenceWrite.State.UNREADABLE;
        }
        return sameJob(jobId, now, inline) ? ReferenceWrite.State.SAME_INLINE : ReferenceWrite.State.OTHER_INLINE;
    }

    private EntryResult rollbackOne(long jobId, boolean dryRun) {
        return attempts(jobId, "pointer was kept",
                (read, value, attempt) -> rollbackAttempt(jobId, dryRun, read, value, attempt));
    }

    /** One attempt at rolling a live entry back: its result, or {@code null} when the entry changed meanwhile. */
    private EntryResult rollbackAttempt(long jobId, boolean dryRun, MapValue read, Object value, int attempt) {
        JobInfoPointer pointer = formats.pointerOf(value);
        if (pointer == null && formats.forValue(value) != null) {
            return skip(jobId, attempt == 1 ? Reason.ALREADY_INLINE : Reason.BECAME_INLINE, attempt);
        }
        if (pointer == null) {
            return fail(jobId, Reason.UNKNOWN_VALUE, unknownValue(value), attempt);
        }
        if (!pointer.storeId().equals(store.storeId())) {
            return fail(jobId, Reason.OTHER_STORE, "the pointer names store '" + pointer.storeId()
                    + "' but the configured store is '" + store.storeId() + "'; run again with that store's"
                    + " configuration", attempt);
        }
        JobValueFormat format = formats.forRollback(pointer.codecId());
        if (format == null) {
            return fail(jobId, Reason.UNKNOWN_VALUE, "no value format of this run (" + formats.names()
                    + ") restores codec id " + pointer.codecId() + "; the pointer was kept, rerun with a"
                    + " value format that does", attempt);
        }
        long freedPerCopy = format.pointerValueBytes(pointer.storeId()) - format.valueBytes(pointer.payloadLength());
        if (dryRun) {
            return EntryResult.of(jobId, Outcome.CONVERTED, Reason.NONE, "", pointer.payloadLength(),
                    freedPerCopy, attempt);
        }
        VerifiedBlob blob;
        try {
            blob = store.read(jobId);
        } catch (JobInfoStoreException e) {
            return fail(jobId, Reason.BLOB_INVALID, e.getMessage() + "; the pointer was kept", attempt);
        }
        if (!pointer.matches(blob.header())) {
            return fail(jobId, Reason.BLOB_INVALID, "the blob at " + blob.location() + " does not match its"
                    + " pointer (pointer " + pointer + ", blob " + blob.header() + "); the pointer was kept",
                    attempt);
        }
        InlineJob job = new InlineJob(pointer.initializationTimestamp(), pointer.codecId(), blob.payload());
        Object inline;
        try {
            inline = format.inlineValue(jobId, job);
        } catch (CodecException e) {
            return fail(jobId, Reason.BLOB_INVALID, "the blob at " + blob.location() + " is not a "
                    + format.name() + " job: " + e.getMessage() + "; the pointer was kept", attempt);
        }
        listener.beforeReplace(jobId, attempt);
        boolean replaced;
        try {
            replaced = map.replace(jobId, read.compareValue(), inline); // the value read: bare or wrapped pointer
        } catch (RuntimeException e) {
            replaced = sameJob(jobId, current(jobId), job);
        }
        if (replaced) {
            String detail = "";
            try {
                store.delete(jobId);
            } catch (JobInfoStoreException e) {
                detail = "the blob could not be deleted (" + e.getMessage() + "); the next migration reuses it";
                LOG.warn("job {}: rolled back, but {}", jobId, detail);
            }
            return EntryResult.of(jobId, Outcome.CONVERTED, Reason.NONE, detail, blob.payload().length,
                    freedPerCopy, attempt);
        }
        Object now = current(jobId);
        if (now == null || now instanceof DeleteMarker) {
            return skip(jobId, Reason.REMOVED, attempt); // the coordinator deletes the blob of a removed job
        }
        if (formats.forValue(now) != null) {
            return skip(jobId, Reason.BECAME_INLINE, attempt);
        }
        return null;
    }

    /**
     * What the map holds under {@code jobId} now, read like every value of a run ({@link MapValueReader}): the
     * decoded value, {@code null}, or {@link #UNDECODABLE}, which no format recognises.
     */
    private Object current(long jobId) {
        MapValue v = reader.read(jobId);
        return v.undecodable() ? UNDECODABLE : v.value();
    }

    /** Whether {@code value} is an inline value of one of the run's formats holding exactly {@code job}. */
    private boolean sameJob(long jobId, Object value, InlineJob job) {
        JobValueFormat format = formats.forValue(value);
        if (format == null) {
            return false;
        }
        try {
            return format.read(jobId, value).sameJobAs(job);
        } catch (CodecException e) {
            return false;
        }
    }

    private String unknownValue(Object value) {
        return "found a " + value.getClass().getName() + ", neither a pointer nor an inline value of the formats"
                + " of this run (" + formats.names() + "); choose the map's value format (--value-format)";
    }

    private static EntryResult skip(long jobId, Reason reason, int attempts) {
        return EntryResult.of(jobId, Outcome.SKIPPED, reason, "", 0, 0, attempts);
    }

    private static EntryResult fail(long jobId, Reason reason, String detail, int attempts) {
        return EntryResult.of(jobId, Outcome.FAILED, reason, detail, 0, 0, attempts);
    }

    /**
     * Configures a {@link Migrator}. Each property can be set once: a second set throws
     * {@link IllegalStateException}.
     */
    public static final class Builder {
        private final SetOnce properties = new SetOnce("Migrator.Builder");
        private final IMap<Long, Object> map;
        private final JobInfoStore store;
        private int parallelism = DEFAULT_PARALLELISM;
        private int maxAttempts = 3;
        private int copies = 2;
        private Listener listener = new Listener() { };
        private JobValueFormats formats = JobValueFormats.inlineOnly();
        private DeleteClaims claims;

        private Builder(IMap<Long, Object> map, JobInfoStore store) {
            this.map = Objects.requireNonNull(map, "map");
            this.store = Objects.requireNonNull(store, "store");
        }

        /**
         * Entries converted at once; default {@value Migrator#DEFAULT_PARALLELISM}. Each entry waits mostly on the store (a
         * durable write: fsync of file and directory) and on map round trips, so more entries in flight overlap these
         * waits (and let the file system commit several fsyncs at once); 16 entries of 200 KB jobs hold about 10 MB.
         */
        public Builder parallelism(int parallelism) {
            this.parallelism = properties.set("parallelism", SetOnce.within("parallelism", parallelism, 1, 64));
            return this;
        }

        /** Compare-and-set attempts per entry when the entry keeps changing; default 3. */
        public Builder maxAttempts(int attempts) {
            this.maxAttempts = properties.set("maxAttempts", SetOnce.within("maxAttempts", attempts, 1, 100));
            return this;
        }

        /** Copies the cluster keeps of each entry (1 + backup count), for the heap estimate; default 2. */
        public Builder copies(int copies) {
            this.copies = properties.set("copies", SetOnce.within("copies", copies, 1, 7));
            return this;
        }

        public Builder listener(Listener listener) {
            this.listener = properties.set("listener", Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /** The inline value formats to migrate and roll back to; default {@link JobValueFormats#inlineOnly()}. */
        public Builder formats(JobValueFormats formats) {
            this.formats = properties.set("formats", Objects.requireNonNull(formats, "formats"));
            return this;
        }

        /**
         * How the job ids of blobs written for entries that went away are claimed before those blobs are deleted;
         * default {@link MarkerClaims} in the map. SeaTunnel's map needs {@link io.jobinfo.store.lifecycle.LockClaims}
         * ({@link JobValueFormats#deleteClaims}).
         */
        public Builder claims(DeleteClaims claims) {
            this.claims = properties.set("claims", Objects.requireNonNull(claims, "claims"));
            return this;
        }

        public Migrator build() {
            return new Migrator(this);
        }
    }
}
