package io.jobinfo.store.lifecycle;

import com.google.auto.value.AutoValue;
import io.jobinfo.store.values.Nullable;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The delete half of the pointer lifecycle, written once for every deleter (the registry at job end, GC, the
 * migrator's cleanup, the drop-in at job end and in its gc): <b>hold check, claim, hold check, delete, release</b>.
 * <ol>
 *   <li>If deletes must wait ({@code hold} names a reason: a partial view of the cluster, an open incident), nothing
 *   happens: {@link Outcome#HELD}.</li>
 *   <li>The job id is claimed ({@link DeleteClaims#claim}). In use (a value that may reference the blob, another
 *   claim): {@link Outcome#KEPT}. The claim failed or its outcome is unknown: {@link Outcome#FAILED}, nothing
 *   deleted.</li>
 *   <li>The hold is asked again under the claim (the view may have changed while the claim waited).</li>
 *   <li>The blob is deleted. A failure, or an unknown outcome, abandons the claim ({@link DeleteClaims.Claim#abandon}:
 *   a marker stays for GC to finish): {@link Outcome#FAILED}. "Outcome unknown" is never read as "safe to clean up".</li>
 *   <li>The claim is released: {@link Outcome#DELETED} or {@link Outcome#ABSENT}; if the release fails the result
 *   says so ({@link Result#releaseFailure()}): the blob is gone, the marker is left for GC.</li>
 * </ol>
 */
public final class BlobDeletion {

    /** What a deletion did. */
    public enum Outcome {
        /** The blob was deleted. */
        DELETED,
        /** There was no blob (deleted before, or never written). */
        ABSENT,
        /** The id is in use (a value that may reference the blob, or another deleter's claim): the blob is kept. */
        KEPT,
        /** Deletes must wait ({@link Result#detail()} says why): nothing was claimed or deleted. */
        HELD,
        /** The claim or the delete failed, or its outcome is unknown ({@link Result#detail()}): the blob may remain. */
        FAILED
    }

    /** Told of a deletion's steps; for logs, metrics and tests that need to stand exactly between two steps. */
    public interface Steps {
        /** No-op. */
        Steps NONE = new Steps() {
        };

        /** The id is claimed and the blob is about to be deleted. */
        default void beforeDelete(long jobId) {
        }
    }

    /** A deletion's outcome and, for {@code HELD} and {@code FAILED}, why. */
    @AutoValue
    public abstract static class Result {
        Result() {
        }

        static Result of(Outcome outcome, String detail, @Nullable RuntimeException releaseFailure) {
            return new AutoValue_BlobDeletion_Result(outcome, detail, releaseFailure);
        }

        public abstract Outcome outcome();

        /** Why it was held or failed; empty otherwise. */
        public abstract String detail();

        /** The failure of the claim's release after a delete that returned, or {@code null}. */
        @Nullable
        public abstract RuntimeException releaseFailure();

        /** Whether the blob is gone now (deleted, or absent). */
        public boolean gone() {
            return outcome() == Outcome.DELETED || outcome() == Outcome.ABSENT;
        }

        @Override
        public String toString() {
            return outcome() + (detail().isEmpty() ? "" : ": " + detail());
        }
    }

    /** Nothing holds deletes. */
    public static final Supplier<String> NEVER_HELD = () -> null;

    private BlobDeletion() {
    }

    /**
     * Deletes the blob of {@code jobId} from {@code store} if nothing holds deletes and the id can be claimed.
     *
     * @param hold the reason deletes must wait now, or {@code null}; asked before the claim and under it
     */
    public static Result deleteUnreferenced(long jobId, DeleteClaims claims, JobInfoStore store, Supplier<String> hold,
                                            Steps steps) {
        String held = holdReason(hold);
        if (held != null) {
            return Result.of(Outcome.HELD, held, null);
        }
        DeleteClaims.Claim claim;
        try {
            claim = claims.claim(jobId);
        } catch (RuntimeException e) {
            return Result.of(Outcome.FAILED, "claiming the job id (" + claims.describe() + ") failed or its outcome"
                    + " is unknown, nothing deleted: " + e, null);
        }
        if (claim == null) {
            return Result.of(Outcome.KEPT, "", null);
        }
        held = holdReason(hold);
        if (held != null) {
            releaseQuietly(claim);
            return Result.of(Outcome.HELD, held, null);
        }
        return deleteClaimed(claim, store, steps);
    }

    /**
     * Deletes the blob of a job id already claimed (the registry's removal, which claims by replacing the pointer
     * with a marker; an interrupted deletion that GC finishes), then releases the claim.
     */
    public static Result deleteClaimed(DeleteClaims.Claim claim, JobInfoStore store, Steps steps) {
        Objects.requireNonNull(store, "store");
        long jobId = claim.jobId();
        boolean deleted;
        try {
            steps.beforeDelete(jobId);
            deleted = store.delete(jobId);
        } catch (JobInfoStoreException | RuntimeException e) {
            claim.abandon();
            return Result.of(Outcome.FAILED, store.location(jobId) + ": " + e.getMessage(), null);
        }
        RuntimeException releaseFailure = null;
        try {
            claim.release();
        } catch (RuntimeException e) {
            releaseFailure = e;
        }
        return Result.of(deleted ? Outcome.DELETED : Outcome.ABSENT, "", releaseFailure);
    }

    /** The hold's reason; a hold that cannot be checked holds. */
    private static String holdReason(Supplier<String> hold) {
        try {
            return hold.get();
        } catch (RuntimeException e) {
            return "whether deletes must wait could not be checked (" + e + ")";
        }
    }

    private static void releaseQuietly(DeleteClaims.Claim claim) {
        try {
            claim.release();
        } catch (RuntimeException e) {
            claim.abandon();
        }
    }
}
