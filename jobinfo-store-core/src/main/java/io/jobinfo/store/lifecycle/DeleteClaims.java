package io.jobinfo.store.lifecycle;

/**
 * Claims on job ids, taken before a blob is deleted, so that no reference to the blob can be written under the id
 * while it is deleted. One of the two halves of the pointer lifecycle (the other: blob first, then the reference by a
 * compare-and-set). Two kinds, by where the job map's readers live:
 * <ul>
 *   <li>{@link MarkerClaims}: a {@link DeleteMarker} put in the job map itself. For maps that only this library's
 *   code reads (the registry's pointer map).</li>
 *   <li>{@link LockClaims}: a per-id lock in a side map. For maps whose values other code reads as its own class
 *   (SeaTunnel's {@code engine_runningJobInfo}, which every member reads as {@code JobInfo}): nothing but the owner's
 *   values ever goes into such a map.</li>
 * </ul>
 * {@link BlobDeletion} runs the protocol over either.
 */
public interface DeleteClaims {

    /**
     * Claims {@code jobId} for deleting its blob, if nothing under the id in the job map may reference the blob.
     *
     * @return the claim, or {@code null} when the id is in use (a value that may reference the blob, or another
     *         deleter's claim): the blob must be kept
     * @throws RuntimeException the claim could not be taken, or its outcome is unknown (a marker may have landed):
     *                          nothing may be deleted; a marker left behind is finished by GC
     *                          ({@link MarkerClaims#adopt})
     */
    Claim claim(long jobId);

    /**
     * Keeps every delete of {@code jobId} out while a writer writes the id's blob and then its reference (blob, then
     * compare-and-set): with {@link LockClaims} the id's lock, the one every delete takes; with {@link MarkerClaims}
     * nothing, since a marker under the id makes the reference's compare-and-set fail instead.
     *
     * @return the hold, to release after the compare-and-set; {@code null} when the id stayed busy (a delete or
     *         another writer of the id): write nothing now and try again
     * @throws RuntimeException the hold could not be taken (the cluster failed); nothing may be written
     */
    WriteHold holdForWrite(long jobId);

    /** What {@link #holdForWrite} took. */
    interface WriteHold {
        /** Nothing to hold ({@link MarkerClaims}). */
        WriteHold NONE = () -> { };

        /** Lets deletes of the id in again; never throws. */
        void release();
    }

    /** What the claims are, for messages ({@code delete markers in <map>}, {@code locks in <map>}). */
    String describe();

    /** A claim on one job id, held until {@link #release()} or {@link #abandon()}. */
    interface Claim {

        long jobId();

        /**
         * Ends the claim after the blob's delete returned (deleted or already absent): the id may be used again.
         *
         * @throws RuntimeException the claim could not be removed (a marker stays: GC removes it once it is older
         *                          than its grace period; a lock goes with its holder)
         */
        void release();

        /**
         * Ends the claim after the delete failed or its outcome is unknown. A marker stays in the map (the delete may
         * still land, and GC finishes it); a lock is released (it cannot outlive its holder; the blob, unreferenced,
         * is found again by the next GC). Never throws.
         */
        void abandon();
    }
}
