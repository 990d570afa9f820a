package io.jobinfo.store.lifecycle;

import com.google.auto.value.AutoValue;
import io.jobinfo.store.values.Nullable;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.ReadVerification;
import io.jobinfo.store.envelope.SealedEnvelope;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.spi.BlobAlreadyExistsException;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.OutcomeUnknownException;
import io.jobinfo.store.values.SetOnce;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The write half of the pointer lifecycle, written once for every writer that turns an inline job value into a
 * reference (the migrator, on either map, and the drop-in's move): <b>hold, blob, check, reference by
 * compare-and-set, and on a lost compare-and-set let the map decide whether the blob is anybody's</b>. The other half
 * is {@link BlobDeletion}.
 * <ol>
 *   <li>The job id is held for writing ({@link DeleteClaims#holdForWrite}): no delete of the id runs until the
 *   compare-and-set is decided. Busy: {@link Outcome#BUSY}, nothing written.</li>
 *   <li>The sealed blob is created (write-once). Other bytes under the id: {@link Outcome#CONFLICT}, unless the
 *   writer asked to {@linkplain Builder#replaceUnreferencedConflicts() replace} a blob that nothing references while
 *   the entry still holds the inline value it read (the drop-in: a job resubmitted with its id); then that blob goes
 *   through {@link BlobDeletion} under this write's own hold and the create is tried once more. A store failure is
 *   {@link Outcome#STORE_FAILED}; an unknown outcome is {@link Outcome#OUTCOME_UNKNOWN}: the blob may be there and is
 *   kept ("outcome unknown" is never "safe to clean up"; GC decides once nothing references it).</li>
 *   <li>Optionally the blob is read back ({@link Builder#readBack}); a read-back that fails, or finds another blob,
 *   is {@link Outcome#READ_BACK_FAILED} and deletes the blob this write created while the entry is still inline.</li>
 *   <li>The reference replaces the inline value by the entry's compare-and-set ({@link Entry#replace}). If the
 *   compare-and-set throws, its outcome is read off the map ({@link State#REFERENCE_WRITTEN} or not).</li>
 *   <li>Lost: what the map holds now decides. Gone (the job ended): the blob is deleted through {@link BlobDeletion},
 *   {@link Outcome#ENTRY_GONE}. Claimed by a deleter (a delete marker): once the marker goes, the blob is deleted as
 *   for a gone entry, {@link Outcome#BEING_DELETED}. A reference: the blob may be that reference's and is kept,
 *   {@link Outcome#BECAME_REFERENCE}. Another job's inline value: the blob this write created is nobody's and is
 *   deleted, {@link Outcome#CHANGED}. The same inline value, or one that cannot be read: the blob is kept,
 *   {@link Outcome#CHANGED}. After {@code CHANGED} the writer looks again.</li>
 *   <li>The hold is released, whatever happened.</li>
 * </ol>
 * A {@link RuntimeException} of the map (the hold, a read of the entry) propagates after the hold is released; the
 * blob, if written, stays for the writer's next attempt or for GC. Nothing here logs: the {@link Result} says what
 * happened and the writer reports it in its own log.
 */
public final class ReferenceWrite {

    /** What a write did. */
    public enum Outcome {
        /** The reference replaced the inline value. */
        WRITTEN,
        /** The id's hold stayed busy (a delete or another writer of the id): nothing was written; try again. */
        BUSY,
        /** Other bytes are stored under the id ({@link Result#detail()}); they and the entry are unchanged. */
        CONFLICT,
        /** The store refused the write ({@link Result#detail()}); the entry stays inline. */
        STORE_FAILED,
        /** The write's outcome is unknown ({@link Result#detail()}); the entry stays inline, the blob is kept. */
        OUTCOME_UNKNOWN,
        /** Reading the blob back failed or found another blob; the entry stays inline. */
        READ_BACK_FAILED,
        /** The entry went away meanwhile (the job ended); the blob written for it was deleted if nothing claimed it. */
        ENTRY_GONE,
        /** A deleter claimed the id meanwhile (a delete marker); the blob was deleted once the claim went. */
        BEING_DELETED,
        /** A reference is under the id now; the blob is kept (it may be that reference's). */
        BECAME_REFERENCE,
        /** The entry holds another value now; look again. */
        CHANGED
    }

    /** What the job map holds under the id now, as the writer reads its own map's values. */
    public enum State {
        /** Nothing. */
        GONE,
        /** A deleter's claim ({@link DeleteMarker}); only in maps with {@link MarkerClaims}. */
        CLAIMED,
        /** The reference this write put (the same pointer). */
        REFERENCE_WRITTEN,
        /** Another reference. */
        OTHER_REFERENCE,
        /** The inline value this write read (the same job). */
        SAME_INLINE,
        /** An inline value of another job under the id. */
        OTHER_INLINE,
        /** A value the writer cannot read: nothing is decided from it. */
        UNREADABLE
    }

    /** The entry being written, as its writer sees it. */
    public interface Entry {
        /**
         * Replaces the inline value the writer read by {@code pointer}'s reference, if the entry still holds it.
         *
         * @return whether it was replaced
         * @throws RuntimeException the outcome is unknown: {@link #state} decides
         */
        boolean replace(JobInfoPointer pointer);

        /**
         * What the map holds under the id now, {@code pointer} being the reference this write puts.
         *
         * @throws RuntimeException the map could not be read: the write ends with it, the blob kept
         */
        State state(JobInfoPointer pointer);
    }

    /** Told of a write's steps: for the writers' seams (crash trials stand exactly between two steps). */
    public interface Steps {
        /** No-op. */
        Steps NONE = new Steps() {
        };

        /** The id is held and the blob is about to be created. */
        default void beforeBlob(long jobId) {
        }

        /** The blob is stored and the reference's compare-and-set is about to run. */
        default void beforeReplace(long jobId) {
        }
    }

    /** A write's outcome, the pointer of the blob it wrote, and for failures and clean-ups what happened. */
    @AutoValue
    public abstract static class Result {
        Result() {
        }

        static Result of(Outcome outcome, JobInfoPointer pointer, boolean created, String detail) {
            return of(outcome, pointer, created, detail, false);
        }

        static Result of(Outcome outcome, JobInfoPointer pointer, boolean created, String detail, boolean leftForGc) {
            return new AutoValue_ReferenceWrite_Result(outcome, pointer, created, detail, leftForGc);
        }

        public abstract Outcome outcome();

        /** The pointer of the blob sealed for this write (written or not). */
        public abstract JobInfoPointer pointer();

        /** Whether this write created the blob (not {@code ALREADY_PRESENT}, not a conflict). */
        public abstract boolean created();

        /** Why it failed, or what a clean-up of the written blob did; empty when there is nothing to say. */
        public abstract String detail();

        /** Whether a blob this write wrote is not needed but stays, for GC to remove ({@link #detail()} says why). */
        public abstract boolean leftForGc();

        @Override
        public String toString() {
            return outcome() + (detail().isEmpty() ? "" : ": " + detail());
        }
    }

    /** How long a write that lost to a deleter's claim waits for that claim to go before it leaves its blob to GC. */
    public static final long CLAIM_WAIT_MILLIS = 10_000;

    private final JobInfoStore store;
    private final DeleteClaims claims;
    private final boolean replaceUnreferencedConflicts;
    private final ReadVerification readBack;
    private final Steps steps;
    private final BlobDeletion.Steps deletes;

    private ReferenceWrite(Builder b) {
        this.deletes = b.deletes;
        this.store = b.store;
        this.claims = b.claims;
        this.replaceUnreferencedConflicts = b.replaceUnreferencedConflicts;
        this.readBack = b.readBack;
        this.steps = b.steps;
    }

    public static Builder builder(JobInfoStore store, DeleteClaims claims) {
        return new Builder(store, claims);
    }

    /**
     * Writes {@code blob} for {@code jobId} and its reference into {@code entry}, as the class comment says.
     *
     * @param blob the sealed envelope of the entry's inline job; its header's initialization timestamp goes into the
     *             pointer
     * @throws RuntimeException the map failed (the hold, or a read of the entry); the hold is released, a blob written
     *                          is kept
     */
    public Result write(long jobId, SealedEnvelope blob, Entry entry, Steps writerSteps) {
        Objects.requireNonNull(blob, "blob");
        Objects.requireNonNull(entry, "entry");
        Steps seams = writerSteps == null ? steps : writerSteps;
        EnvelopeHeader header = blob.header();
        JobInfoPointer pointer = new JobInfoPointer(jobId, header.initializationTimestamp(), store.storeId(), header);
        DeleteClaims.WriteHold hold = claims.holdForWrite(jobId);
        if (hold == null) {
            return Result.of(Outcome.BUSY, pointer, false, "the job id is held by " + claims.describe());
        }
        try {
            seams.beforeBlob(jobId);
            Created created = create(jobId, blob, pointer, entry);
            if (created.failure() != null) {
                return created.failure();
            }
            boolean mine = created.mine();
            Result result = afterCreate(jobId, blob, pointer, entry, seams, mine);
            return created.note().isEmpty() ? result : new Cleanup(result.detail(), result.leftForGc())
                    .into(result.outcome(), pointer, mine, created.note());
        } finally {
            hold.release();
        }
    }

    /** Steps 3 to 5, the blob stored. */
    private Result afterCreate(long jobId, SealedEnvelope blob, JobInfoPointer pointer, Entry entry, Steps seams,
                               boolean mine) {
        EnvelopeHeader header = blob.header();
        if (readBack != null) {
            String problem = readBackProblem(jobId, header);
            if (problem != null) {
                return (mine ? deleteWhileInline(jobId, blob, pointer, entry)
                        : Cleanup.NONE).into(Outcome.READ_BACK_FAILED, pointer, mine, problem);
            }
        }
        seams.beforeReplace(jobId);
        boolean replaced;
        try {
            replaced = entry.replace(pointer);
        } catch (RuntimeException unknown) {
            replaced = entry.state(pointer) == State.REFERENCE_WRITTEN;
        }
        if (replaced) {
            return Result.of(Outcome.WRITTEN, pointer, mine, "");
        }
        return lost(jobId, blob, pointer, entry, mine);
    }

    /** What the create step did: a failure that ends the write, or whether this write created the blob. */
    @AutoValue
    abstract static class Created {
        /** The failure that ends the write, or {@code null} when the create step did not fail. */
        @Nullable
        abstract Result failure();

        abstract boolean mine();

        abstract String note();

        static Created failed(Outcome outcome, JobInfoPointer pointer, String detail) {
            return new AutoValue_ReferenceWrite_Created(Result.of(outcome, pointer, false, detail), false, "");
        }

        static Created stored(CreateOutcome outcome, String note) {
            return new AutoValue_ReferenceWrite_Created(null, outcome == CreateOutcome.CREATED, note);
        }
    }

    private Created create(long jobId, SealedEnvelope blob, JobInfoPointer pointer, Entry entry) {
        try {
            try {
                return Created.stored(store.create(jobId, blob), "");
            } catch (BlobAlreadyExistsException conflict) {
                if (!replaceUnreferencedConflicts) {
                    return Created.failed(Outcome.CONFLICT, pointer, store.location(jobId) + " holds other bytes"
                            + " than this inline job (a leftover of an earlier job with this id?)");
                }
                if (entry.state(pointer) != State.SAME_INLINE) {
                    return Created.failed(Outcome.CHANGED, pointer, "");
                }
                // the entry is the inline value read, so nothing references the stored blob; under this write's own
                // hold (claims are reentrant) it may go through the delete protocol
                BlobDeletion.Result earlier = BlobDeletion.deleteUnreferenced(jobId, claims, store,
                        BlobDeletion.NEVER_HELD, deletes);
                if (!earlier.gone()) {
                    return Created.failed(Outcome.CONFLICT, pointer, "the blob of an earlier job under the id at "
                            + store.location(jobId) + " could not be replaced: " + earlier);
                }
                return Created.stored(store.create(jobId, blob), earlier.outcome() == BlobDeletion.Outcome.DELETED
                        ? "the blob of an earlier job under the id (submitted again with its id) is deleted" : "");
            }
        } catch (BlobAlreadyExistsException e) {
            return Created.failed(Outcome.CONFLICT, pointer, e.getMessage());
        } catch (OutcomeUnknownException e) {
            return Created.failed(Outcome.OUTCOME_UNKNOWN, pointer, e.getMessage());
        } catch (JobInfoStoreException e) {
            return Created.failed(Outcome.STORE_FAILED, pointer, e.getMessage());
        }
    }

    private String readBackProblem(long jobId, EnvelopeHeader header) {
        try {
            VerifiedBlob back = store.read(jobId, readBack);
            return back.header().describesSameBlob(header) ? null
                    : "read back " + back.header() + ", wrote " + header;
        } catch (JobInfoStoreException e) {
            return "reading back the written blob failed: " + e.getMessage();
        }
    }

    /** After a lost compare-and-set: the map decides what becomes of the blob. */
    private Result lost(long jobId, SealedEnvelope blob, JobInfoPointer pointer, Entry entry, boolean mine) {
        State now = entry.state(pointer);
        switch (now) {
            case GONE:
                return deleteUnreferenced(jobId).into(Outcome.ENTRY_GONE, pointer, mine, "");
            case CLAIMED:
                return deleteOnceUnclaimed(jobId, blob, pointer, entry).into(Outcome.BEING_DELETED, pointer, mine, "");
            case REFERENCE_WRITTEN: // the same reference, put by another writer (a migration beside the drop-in)
            case OTHER_REFERENCE:
                return Result.of(Outcome.BECAME_REFERENCE, pointer, mine, "");
            case OTHER_INLINE:
                return (mine ? deleteWhileInline(jobId, blob, pointer, entry, now) : Cleanup.NONE)
                        .into(Outcome.CHANGED, pointer, mine, "");
            default:
                return Result.of(Outcome.CHANGED, pointer, mine, "");
        }
    }

    /** What a clean-up of the written blob did. */
    private static final class Cleanup {
        static final Cleanup NONE = new Cleanup("", false);

        final String text;
        final boolean leftForGc;

        Cleanup(String text, boolean leftForGc) {
            this.text = text;
            this.leftForGc = leftForGc;
        }

        Result into(Outcome outcome, JobInfoPointer pointer, boolean mine, String before) {
            String detail = before.isEmpty() ? text : text.isEmpty() ? before : before + "; " + text;
            return Result.of(outcome, pointer, mine, detail, leftForGc);
        }
    }

    /** Deletes the blob of an entry that went away, through {@link BlobDeletion}. */
    private Cleanup deleteUnreferenced(long jobId) {
        BlobDeletion.Result r = BlobDeletion.deleteUnreferenced(jobId, claims, store, BlobDeletion.NEVER_HELD,
                deletes);
        switch (r.outcome()) {
            case DELETED:
                return r.releaseFailure() == null ? new Cleanup("the blob written for it is deleted", false)
                        : new Cleanup("the blob written for it is deleted, but removing the claim failed ("
                        + r.releaseFailure() + "); gc removes it", true);
            case ABSENT:
                return Cleanup.NONE;
            case KEPT:
                return new Cleanup("registered again meanwhile; the blob written for it is kept", false);
            default:
                return new Cleanup("the blob written for it is not needed but was not deleted (" + r.detail()
                        + "); gc removes it", true);
        }
    }

    /**
     * Deletes the blob this write created for an inline value of another job that is still under the id. No claim is
     * possible without hiding that running job from readers, and none is needed: no reference can be put under the
     * id without replacing that value, and every writer of a reference holds the id as this write does. Should a
     * reference to exactly this blob appear within the delete all the same (the inline job removed and the id
     * resubmitted with these bytes, in a map with marker claims), the blob is written again.
     *
     * @param before what the map holds under the id, as the caller has just read it
     */
    private Cleanup deleteWhileInline(long jobId, SealedEnvelope blob, JobInfoPointer pointer, Entry entry,
                                      State before) {
        try {
            if (before == State.GONE) {
                return deleteUnreferenced(jobId);
            }
            if (before != State.OTHER_INLINE && before != State.SAME_INLINE) {
                return Cleanup.NONE; // a reference (maybe to this very blob), a claim, or unreadable: not ours
            }
            deletes.beforeDelete(jobId);
            store.delete(jobId);
            if (entry.state(pointer) == State.REFERENCE_WRITTEN) {
                store.create(jobId, blob);
                return new Cleanup("a reference to the blob appeared while it was deleted, and it was written again",
                        false);
            }
            return new Cleanup("the blob written for it is deleted", false);
        } catch (JobInfoStoreException | RuntimeException e) {
            return notDeleted(e);
        }
    }

    /** {@link #deleteWhileInline}, reading first what the map holds under the id. */
    private Cleanup deleteWhileInline(long jobId, SealedEnvelope blob, JobInfoPointer pointer, Entry entry) {
        State before;
        try {
            before = entry.state(pointer);
        } catch (RuntimeException e) {
            return notDeleted(e);
        }
        return deleteWhileInline(jobId, blob, pointer, entry, before);
    }

    private static Cleanup notDeleted(Exception e) {
        return new Cleanup("the blob written for it is not needed but could not be deleted (" + e.getMessage()
                + "); gc removes it once the job id is no longer registered", true);
    }

    /**
     * Deletes the blob this write created for an entry a deleter claimed: the deleter deletes the blob under the id
     * before it removes its claim, so a blob that landed after that delete is nobody's once the claim is gone. Waits
     * up to {@link #CLAIM_WAIT_MILLIS} ms; a claim still there after that belongs to a deleter that stopped, and GC
     * finishes its deletion, this blob with it.
     */
    private Cleanup deleteOnceUnclaimed(long jobId, SealedEnvelope blob, JobInfoPointer pointer, Entry entry) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLAIM_WAIT_MILLIS);
        long pause = 5;
        while (true) {
            State now = entry.state(pointer);
            if (now != State.CLAIMED) {
                if (now == State.GONE) {
                    return deleteUnreferenced(jobId);
                }
                if (now == State.OTHER_INLINE || now == State.SAME_INLINE) {
                    return deleteWhileInline(jobId, blob, pointer, entry, now);
                }
                return Cleanup.NONE;
            }
            if (System.nanoTime() - deadline > 0) {
                return new Cleanup("its deleter's claim is still in place after " + CLAIM_WAIT_MILLIS + " ms; the"
                        + " blob written for it is left to gc, which finishes that deletion", true);
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Cleanup("interrupted while its deleter finishes; the blob written for it is left to gc",
                        true);
            }
            pause = Math.min(200, pause * 2);
        }
    }

    /**
     * Configures a {@link ReferenceWrite}. Each property can be set once: a second set throws
     * {@link IllegalStateException} naming it and its value.
     */
    public static final class Builder {
        private final SetOnce properties = new SetOnce("ReferenceWrite.Builder");
        private final JobInfoStore store;
        private final DeleteClaims claims;
        private boolean replaceUnreferencedConflicts;
        private ReadVerification readBack;
        private Steps steps = Steps.NONE;
        private BlobDeletion.Steps deletes = BlobDeletion.Steps.NONE;

        private Builder(JobInfoStore store, DeleteClaims claims) {
            this.store = Objects.requireNonNull(store, "store");
            this.claims = Objects.requireNonNull(claims, "claims");
        }

        /**
         * Other bytes under the id, while the entry still holds the inline value read, are an earlier job's blob that
         * nothing references: delete it (through {@link BlobDeletion}) and write this one. Default: a conflict.
         */
        public Builder replaceUnreferencedConflicts() {
            this.replaceUnreferencedConflicts = properties.set("replaceUnreferencedConflicts", true);
            return this;
        }

        /** Read the blob back at {@code level} before the compare-and-set. Default: no read-back. */
        public Builder readBack(ReadVerification level) {
            this.readBack = properties.set("readBack", Objects.requireNonNull(level, "readBack"));
            return this;
        }

        /** The seams told of every write's steps, unless {@link #write} is given its own. Default: none. */
        public Builder steps(Steps steps) {
            this.steps = properties.set("steps", Objects.requireNonNull(steps, "steps"));
            return this;
        }

        /** Told before each delete of a blob this write cleans up (for the writer's log and cache). Default: none. */
        public Builder deletionSteps(BlobDeletion.Steps deletes) {
            this.deletes = properties.set("deletionSteps", Objects.requireNonNull(deletes, "deletionSteps"));
            return this;
        }

        public ReferenceWrite build() {
            return new ReferenceWrite(this);
        }
    }
}
